/**
 * The editor's job creation (src/editor/editor-jobs.ts, no VS Code needed) against a real Local API on the
 * same data directory: the editor refuses what the API refuses, with the same code and message.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ApiError } from '../../src/contract/errors';
import { EditorJobs, type EditorSttRequest, type EditorTtsRequest } from '../../src/editor/editor-jobs';
import { createVoiceLibrary } from '../../src/voices/library';
import { voiceIdFor } from '../../src/voices/voice-id';
import { uploadMultipart } from '../helpers/multipart';
import { isTerminal, postJson, request, waitFor, type RawResponse, useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId } from '../helpers/voices';
import { installSyntheticWhisper } from '../pressure/support';

const JFK = () => testModel('audio', 'jfk.wav');

describe('the editor refuses what the Local API refuses, with the same message', () => {
  const t = useTestServer();
  let editor: EditorJobs;
  let voiceId: string;
  before(async () => {
    await installSyntheticWhisper(t.dataDir);
    voiceId = await englishVoiceId(t.base);
    editor = new EditorJobs({
      server: async () => t.server,
      voices: createVoiceLibrary({ dataDir: t.dataDir }),
      dataDir: () => t.dataDir,
      defaultVoiceId: () => '',
      preferredSttModel: () => undefined,
      editorLanguage: () => 'en',
    });
  });

  /**
   * The editor's refusal and the API's answer to the same request: the same code, status and message (the
   * editor adds how to install a missing model in VS Code). Returns the API's [code, status, message].
   */
  async function bothRefuse(
    editorCall: () => Promise<unknown>,
    api: () => Promise<RawResponse>,
  ): Promise<[string, number, string]> {
    const refused = await editorCall().then(
      (job) => assert.fail(`the editor accepted it: ${JSON.stringify(job).slice(0, 200)}`),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof ApiError, String(refused));
    const answer = await api();
    const { code, message } = answer.json().error;
    const hint = code === 'MODEL_NOT_INSTALLED' ? ' In VS Code: run "Speech Studio: Install Model…".' : '';
    assert.deepEqual([refused.code, refused.status, refused.message], [code, answer.status, `${message}${hint}`]);
    return [code, answer.status, message];
  }

  const tts = (body: EditorTtsRequest) =>
    bothRefuse(
      () => editor.createTts(body),
      () => postJson(`${t.base}/tts/jobs`, body),
    );
  const stt = (fields: Omit<EditorSttRequest, 'file'>, form: Record<string, string>) =>
    bothRefuse(
      () => editor.createStt({ file: JFK(), ...fields }),
      () => uploadMultipart(`${t.base}/stt/jobs`, form, { source: JFK(), filename: 'jfk.wav' }),
    );

  it('subtitles that cannot be read: 422 naming the line', async () => {
    const [, status, message] = await tts({
      voiceId,
      text: '1\n00:00:01,000 --> 00:0x:02,000\nHello.\n',
      inputFormat: 'srt',
    });
    assert.equal(status, 422);
    assert.match(message, /^text: not valid SRT, line 2: /);
  });

  it('a narration past the timeline limit, a text with nothing to speak, a voice that is not installed', async () => {
    assert.match(
      (await tts({ voiceId, text: 'WEBVTT\n\n12:00:00.000 --> 12:00:01.000\nLate.\n', inputFormat: 'vtt' }))[2],
      /^text: cue 1 \(line 3\)/,
    );
    assert.equal((await tts({ voiceId, text: '   ' }))[1], 422);
    assert.equal((await tts({ voiceId: voiceIdFor('svox-pico', 'it-IT'), text: 'Ciao.' }))[0], 'VOICE_NOT_READY');
  });

  it('a language whisper does not transcribe: 422 naming language', async () => {
    const [, status, message] = await stt({ language: 'xx' }, { language: 'xx' });
    assert.equal(status, 422);
    assert.match(message, /^language: xx is not a language whisper transcribes/);
  });

  it('an exact speaker count without the diarization models: 409 naming them', async () => {
    const [code, , message] = await stt(
      { speakerCountMode: 'exact', speakerCount: 2 },
      { speakerCountMode: 'exact', speakerCount: '2' },
    );
    assert.equal(code, 'MODEL_NOT_INSTALLED');
    assert.match(message, /diarization models/);
  });

  it('and what both admit runs: a narration whose speakers have their own voices, a transcription', async () => {
    const french = voiceIdFor('espeak-ng', 'roa/fr');
    const vtt = 'WEBVTT\n\n00:00.500 --> 00:02.000\n<v Marie>Bonjour.\n\n00:02.500 --> 00:04.000\nHello.\n';
    const narration = await editor.createTts({ text: vtt, inputFormat: 'vtt', speakerVoices: { Marie: french } });
    assert.equal(narration.input.kind === 'tts' && narration.input.voice.speakers?.Marie?.engineVoiceId, 'roa/fr');
    const transcription = await editor.createStt({ file: JFK(), language: 'en' });
    assert.equal(
      transcription.input.kind === 'stt' && transcription.input.options.diarizationEnabled,
      false,
      'default diarization without its models is dropped',
    );
    for (const job of [narration, transcription]) {
      assert.equal((await request(`${t.base}/jobs/${job.id}`)).status, 404, 'editor jobs stay out of the Local API');
      const done = await waitFor(`editor job ${job.id}`, async () => t.server.jobs.get(job.id)!, isTerminal, 60_000);
      assert.equal(done.status, 'succeeded', done.error ?? '');
    }
  });
});
