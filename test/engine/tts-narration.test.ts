import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import { readWavSamples } from '../../src/audio/wav-reader';
import { UserFacingError, type TtsTask, type TtsVoiceRef } from '../../src/engine-api/protocol';
import { runTtsTask } from '../../src/engine/tts/run-tts';
import { tempDir } from '../helpers/temp';
import { soundOnsets, srtOf } from '../helpers/tts-audio';

const OPTIONS: Omit<TtsRequest, 'text'> = {
  voiceId: '59ecd22d-96db-56b8-a0f4-62d14ba28a8b',
  language: 'auto',
  inputFormat: 'srt',
  outputFormat: 'wav',
  sampleRate: 24000,
  bitrateKbps: null,
  audioChannels: 'mono',
  steps: 32,
  guidanceScale: 2,
  speed: 1,
  duration: null,
  denoise: true,
  preprocessPrompt: true,
  postprocessOutput: true,
  trimSilence: true,
};
const ENGLISH: TtsVoiceRef = {
  engine: 'espeak-ng',
  engineVoiceId: 'gmw/en-US',
  languageCode: 'en-US',
  name: 'English (America)',
};

let dir: string;
let runs = 0;
before(async () => {
  dir = await tempDir('tts-narration-');
});
after(() => rm(dir, { recursive: true, force: true }));

async function narrate(text: string, options: Partial<TtsTask['options']> = {}, voice: TtsVoiceRef = ENGLISH) {
  const run = ++runs;
  const task: TtsTask = {
    kind: 'tts',
    textPath: path.join(dir, `in-${run}.srt`),
    outputPath: path.join(dir, `out-${run}.wav`),
    options: { ...OPTIONS, ...options },
    voice,
  };
  await writeFile(task.textPath, text);
  const outcome = await runTtsTask(task, () => undefined);
  const { info, samples } = readWavSamples(await readFile(task.outputPath));
  return { result: outcome.result as Record<string, any>, samples, rate: info.sampleRate };
}

describe('subtitle narration with espeak-ng', () => {
  it("starts each cue's speech at its cue time and lasts until the last cue ends", async () => {
    const cues: [number, number, string][] = [
      [0.5, 2.5, 'Good morning.'],
      [3.2, 5, 'The second cue.'],
      [6.4, 8.75, 'And the third one.'],
    ];
    const { result, samples, rate } = await narrate(srtOf(cues));
    assert.ok(Math.abs(samples.length / rate - 8.75) < 0.002, `${samples.length / rate} s`);
    assert.equal(result.durationSeconds, 8.75);
    const onsets = soundOnsets(samples, rate);
    assert.equal(onsets.length, 3, `onsets ${onsets.join(',')}`);
    onsets.forEach((onset, i) =>
      assert.ok(Math.abs(onset - cues[i][0]) < 0.03, `cue ${i + 1} starts at ${onset}, not ${cues[i][0]}`),
    );
    assert.deepEqual(
      result.cues.map((cue: any) => [cue.index, cue.placedStart, cue.speedFactor, cue.overran]),
      [
        [1, 0.5, 1, false],
        [2, 3.2, 1, false],
        [3, 6.4, 1, false],
      ],
    );
    assert.equal(result.overranCues, 0);
    assert.equal(result.chunks, 3);
  });

  it('borrows the silence before the next cue, then speeds up, then overruns without overlapping', async () => {
    const long = 'This sentence is far too long to be spoken in the short slot that its subtitle cue gives it.';
    const { result, samples, rate } = await narrate(
      srtOf([
        [0, 1, long],
        [2, 3, 'Next.'],
        [3.2, 3.6, long],
      ]),
    );
    const [first, second, third] = result.cues;
    assert.ok(first.speechSeconds > 4, `natural length ${first.speechSeconds}`);
    assert.equal(first.speedFactor, 2, 'sped up to the limit');
    assert.equal(first.overran, true);
    assert.ok(Math.abs(first.overrunSeconds - (first.speechSeconds / 2 - 2)) < 0.01);
    assert.ok(first.borrowedSeconds > 0.99, 'used the whole gap before the next cue');
    assert.ok(second.placedStart >= first.placedEnd, 'the next cue waits for the overrun');
    assert.ok(third.placedStart >= second.placedEnd);
    assert.equal(third.overran, true, 'the last cue may not run past its own end without overrunning');
    assert.equal(result.overranCues, 2);
    assert.ok(Math.abs(samples.length / rate - third.placedEnd) < 0.02, 'an overrun last cue extends the output');
  });

  it('speaks cues of named speakers with their own voices, and reports the speakers', async () => {
    const french: TtsVoiceRef = {
      engine: 'espeak-ng',
      engineVoiceId: 'roa/fr',
      languageCode: 'fr-FR',
      name: 'French (France)',
    };
    const srt = srtOf([
      [0, 3, 'MARIE: Bonjour tout le monde.'],
      [3.5, 6, 'Hello everyone.'],
    ]);
    const mapped = await narrate(srt, {}, { ...ENGLISH, speakers: { Marie: french } });
    const plain = await narrate(srt);
    assert.deepEqual(
      mapped.result.cues.map((cue: any) => cue.speaker),
      ['MARIE', null],
    );
    assert.notEqual(
      mapped.result.cues[0].speechSeconds,
      plain.result.cues[0].speechSeconds,
      'another voice spoke the first cue',
    );
    assert.equal(mapped.result.cues[1].speechSeconds, plain.result.cues[1].speechSeconds);
  });

  it('reads WebVTT the same way and reports options a narration does not use', async () => {
    const { result, samples, rate } = await narrate(
      'WEBVTT\n\n00:00.300 --> 00:01.800 align:start\n<v Ann>Hello there.\n',
      { inputFormat: 'vtt', duration: 10 },
    );
    assert.ok(Math.abs(samples.length / rate - 1.8) < 0.002);
    assert.ok(Math.abs(soundOnsets(samples, rate)[0] - 0.3) < 0.03);
    assert.equal(result.cues[0].speaker, 'Ann');
    assert.match(result.ignoredOptions.duration, /subtitle timing/);
    assert.equal(result.duration, null);
  });

  it('fails with the line number when the subtitles cannot be read', async () => {
    await assert.rejects(narrate('1\n00:00:01,000 --> 00:00:00,500\nx\n'), (error: unknown) => {
      assert.ok(error instanceof UserFacingError);
      assert.match(error.message, /SRT text cannot be read: line 2: the cue ends before it starts/);
      return true;
    });
  });
});
