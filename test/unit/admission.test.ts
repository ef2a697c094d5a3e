import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { compileValidators } from '../../src/contract/validation';
import {
  admitStt,
  admitTts,
  checkSttFields,
  checkTtsRequest,
  sttRefusal,
  type SttModels,
} from '../../src/jobs/admission';
import { nameFromFile, nameFromText } from '../../src/jobs/job-name';
import { canRunStt } from '../../src/link/capabilities';
import { MAX_NARRATION_SECONDS } from '../../src/subtitles/timeline-limit';
import { createVoiceLibrary, type VoiceLibrary } from '../../src/voices/library';
import { voiceIdFor } from '../../src/voices/voice-id';
import { tempDir } from '../helpers/temp';
import { refusal } from '../helpers/refusal';

const validators = compileValidators();
const english = voiceIdFor('espeak-ng', 'gmw/en-US');
const french = voiceIdFor('espeak-ng', 'roa/fr');
/** A catalog voice whose lingware is not installed in an empty data directory. */
const notInstalled = voiceIdFor('svox-pico', 'it-IT');

const model = (name: string, englishOnly = false) => ({ name, englishOnly });
const installed = (diarization: boolean, ...models: { name: string; englishOnly: boolean }[]): SttModels => ({
  models,
  diarization,
});
const ask = (fields: Record<string, string>) => checkSttFields(validators, fields);

describe('admission of TTS requests', () => {
  let dataDir: string;
  let voices: VoiceLibrary;
  before(async () => {
    dataDir = await tempDir();
    voices = createVoiceLibrary({ dataDir });
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('fills in the defaults and resolves the voice for the engine', () => {
    const { request, voice } = admitTts(validators, { voiceId: english.toUpperCase(), text: 'Hello.' }, voices);
    assert.equal(request.outputFormat, 'wav');
    assert.deepEqual([voice.engine, voice.engineVoiceId], ['espeak-ng', 'gmw/en-US']);
  });

  it('refuses a text that is only whitespace with 422 naming text', () => {
    for (const text of [' ', '\n\t \r\n', '\u00a0\u2003']) {
      const error = refusal(() => admitTts(validators, { voiceId: english, text }, voices));
      assert.equal(error.code, 'INVALID_REQUEST');
      assert.match(error.message, /^text: has nothing to speak/);
    }
  });

  it('refuses an unknown voice with 422 and a voice that is not ready with 409 VOICE_NOT_READY', () => {
    assert.match(
      refusal(() => admitTts(validators, { voiceId: '00000000-0000-4000-8000-000000000000', text: 'Hi' }, voices))
        .message,
      /^voiceId: no voice/,
    );
    const notReady = refusal(() => admitTts(validators, { voiceId: notInstalled, text: 'Hi' }, voices));
    assert.deepEqual([notReady.code, notReady.status], ['VOICE_NOT_READY', 409]);
  });

  it('refuses subtitles it cannot read with 422 naming the line, and says a 0 ms cue has no duration', () => {
    const unreadable = refusal(() =>
      checkTtsRequest(validators, {
        voiceId: english,
        text: '1\n00:00:01,000 -> 00:00:02,000\nx\n',
        inputFormat: 'srt',
      }),
    );
    assert.match(unreadable.message, /^text: not valid SRT, line 2: cannot read the cue timing/);
    const instant = refusal(() =>
      checkTtsRequest(validators, {
        voiceId: english,
        text: '1\n00:00:01,000 --> 00:00:01,000\nx\n',
        inputFormat: 'srt',
      }),
    );
    assert.match(instant.message, /^text: not valid SRT, line 2: the cue has no duration/);
    const backwards = refusal(() =>
      checkTtsRequest(validators, {
        voiceId: english,
        text: '1\n00:00:02,000 --> 00:00:01,000\nx\n',
        inputFormat: 'srt',
      }),
    );
    assert.match(backwards.message, /line 2: the cue ends before it starts/);
  });

  it("bounds a narration's timeline: a cue ending past 10 hours is refused with its number and line", () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nFirst.\n\n2\n99:00:00,000 --> 99:00:01,000\nFar away.\n';
    const far = refusal(() => checkTtsRequest(validators, { voiceId: english, text: srt, inputFormat: 'srt' }));
    assert.equal(far.status, 422);
    assert.match(far.message, /^text: cue 2 \(line 6\) ends at 99:00:01,000; a narration may last at most 10 hours$/);
    const vtt = 'WEBVTT\n\n99:59:59.000 --> 99:59:59.500\nLate.\n';
    assert.match(
      refusal(() => checkTtsRequest(validators, { voiceId: english, text: vtt, inputFormat: 'vtt' })).message,
      /^text: cue 1 \(line 3\) ends at 99:59:59\.500;/,
    );
    const atLimit = `1\n09:59:59,000 --> 10:00:00,000\nJust in time.\n`;
    assert.equal(MAX_NARRATION_SECONDS, 36_000);
    assert.equal(
      checkTtsRequest(validators, { voiceId: english, text: atLimit, inputFormat: 'srt' }).inputFormat,
      'srt',
    );
  });

  it('gives subtitle narrations the voices of named speakers, and refuses unknown (422) or unready (409) ones', () => {
    const vtt = 'WEBVTT\n\n00:01.000 --> 00:02.000\n<v Marie>Bonjour.\n';
    const { voice } = admitTts(validators, { voiceId: english, text: vtt, inputFormat: 'vtt' }, voices, {
      Marie: french,
    });
    assert.equal(voice.speakers?.Marie?.engineVoiceId, 'roa/fr');
    const plain = admitTts(validators, { voiceId: english, text: 'No cues here.' }, voices, { Marie: french });
    assert.equal(plain.voice.speakers, undefined, 'plain text has no speakers');
    const unknown = refusal(() =>
      admitTts(validators, { voiceId: english, text: vtt, inputFormat: 'vtt' }, voices, {
        Bob: '00000000-0000-5000-8000-000000000000',
      }),
    );
    assert.deepEqual(
      [unknown.code, /^speakerVoices: .*speaker "Bob"/.test(unknown.message)],
      ['INVALID_REQUEST', true],
    );
    const unready = refusal(() =>
      admitTts(validators, { voiceId: english, text: vtt, inputFormat: 'vtt' }, voices, { Bob: notInstalled }),
    );
    assert.equal(unready.code, 'VOICE_NOT_READY');
  });
});

describe('admission of STT requests', () => {
  it('refuses a language whisper does not know with 422 naming language', () => {
    const error = refusal(() => ask({ language: 'xx' }));
    assert.match(error.message, /^language: xx is not a language whisper transcribes/);
    assert.equal(ask({ language: 'pt-BR' }).options.language, 'pt-BR');
  });

  it('chooses a model that serves the language, even over a preferred English-only one', () => {
    const models = installed(false, model('ggml-base.bin'), model('ggml-base.en.bin', true));
    assert.equal(admitStt(ask({ language: 'en' }), models).model.name, 'ggml-base.en.bin');
    assert.equal(admitStt(ask({ language: 'fr' }), models, 'ggml-base.en.bin').model.name, 'ggml-base.bin');
    assert.equal(admitStt(ask({ language: 'en' }), models, 'ggml-base.bin').model.name, 'ggml-base.bin');
    const none = refusal(() => admitStt(ask({ language: 'fr' }), installed(false, model('ggml-tiny.en.bin', true))));
    assert.deepEqual([none.code, none.status], ['MODEL_NOT_INSTALLED', 409]);
    assert.match(refusal(() => admitStt(ask({}), installed(false))).message, /No speech-to-text model is installed/);
  });

  it('drops default diarization without its models, but answers 409 when it was asked for, also by an exact speakerCount', () => {
    const bare = installed(false, model('ggml-base.bin'));
    assert.equal(admitStt(ask({}), bare).options.diarizationEnabled, false);
    assert.equal(admitStt(ask({}), installed(true, model('ggml-base.bin'))).options.diarizationEnabled, true);
    assert.equal(
      admitStt(ask({ diarizationEnabled: 'false', speakerCountMode: 'exact', speakerCount: '2' }), bare).options
        .diarizationEnabled,
      false,
    );
    const explicit = refusal(() => admitStt(ask({ diarizationEnabled: 'true' }), bare));
    assert.match(explicit.message, /diarization models \(pyannote segmentation and speaker embedding\)/);
    const counted = refusal(() => admitStt(ask({ speakerCountMode: 'exact', speakerCount: '3' }), bare));
    assert.equal(counted.code, 'MODEL_NOT_INSTALLED');
    assert.match(
      counted.message,
      /speakerCount asks for speaker diarization.*diarization models \(pyannote segmentation and speaker embedding\)/,
    );
  });

  it('lets the relay route by the same rules: a device can run what admission would admit there', () => {
    const caps = (diarization: boolean, ...models: { name: string; englishOnly: boolean }[]) => ({
      version: 'x',
      queueCapacity: 1,
      tts: { voices: [] },
      stt: { models, diarization },
    });
    for (const [fields, device, admits] of [
      [{ language: 'en' }, caps(false, model('tiny.en', true)), true],
      // Every model English-only: auto means English (issue 24 #19).
      [{ language: 'auto' }, caps(false, model('tiny.en', true)), true],
      [{ language: 'fr' }, caps(false, model('tiny.en', true)), false],
      [{ speakerCountMode: 'exact', speakerCount: '2' }, caps(false, model('base')), false],
      [{ speakerCountMode: 'exact', speakerCount: '2' }, caps(true, model('base')), true],
      [{}, caps(false, model('base')), true],
    ] as const) {
      const asked = ask({ ...fields });
      assert.equal(canRunStt(device, asked.options, asked.diarizationAsked), admits, JSON.stringify(fields));
      assert.equal(sttRefusal(asked, device.stt) === undefined, admits);
    }
  });
});

describe('job names', () => {
  const wellFormed = (text: string): boolean =>
    !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

  it('cut a long text at whole code points, never inside a surrogate pair', () => {
    const name = nameFromText('😀'.repeat(100));
    assert.ok(wellFormed(name), JSON.stringify(name));
    assert.equal([...name].length, 58);
    assert.ok(name.endsWith('…'));
    assert.equal(nameFromText('  Hello\n world  '), 'Hello world');
    assert.equal(nameFromText('x'.repeat(60)), 'x'.repeat(60));
    assert.equal(nameFromText('x'.repeat(61)), `${'x'.repeat(57)}…`);
    assert.equal(nameFromText(' \n '), 'Speech');
  });

  it('cut a long file name at whole code points', () => {
    const name = nameFromFile(`${'🎙'.repeat(250)}.wav`);
    assert.ok(wellFormed(name));
    assert.equal([...name].length, 200);
    assert.equal(nameFromFile(''), 'upload');
  });
});
