import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import { readWavSamples } from '../../src/audio/wav-reader';
import { UserFacingError, type TtsTask, type TtsVoiceRef } from '../../src/engine-api/protocol';
import { runTtsTask } from '../../src/engine/tts/run-tts';
import {
  KITTEN_SPEAKERS,
  kittenMetadata,
  makeKittenModel,
  makeKittenVoices,
  onnxMetadata,
  protobufFields,
  withOnnxMetadata,
} from '../fixtures/kitten/make-kitten-model';
import { writeSyntheticKitten, type KittenFiles } from '../helpers/kitten-model';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

const OPTIONS: Omit<TtsRequest, 'text'> = {
  voiceId: '00000000-0000-5000-8000-000000000000',
  language: 'auto',
  inputFormat: 'txt',
  outputFormat: 'wav',
  sampleRate: 24000,
  bitrateKbps: null,
  audioChannels: 'mono',
  steps: 32,
  guidanceScale: 2,
  speed: 1,
  duration: null,
  denoise: false,
  preprocessPrompt: true,
  postprocessOutput: false,
  trimSilence: false,
};

let dir: string;
let files: KittenFiles;
let runs = 0;
before(async () => {
  dir = await tempDir('kitten-tts-');
  files = await writeSyntheticKitten(path.join(dir, 'kitten'));
});
after(() => rm(dir, { recursive: true, force: true }));

const kitten = (speakerId: number): TtsVoiceRef => ({
  engine: 'sherpa-onnx',
  engineVoiceId: `kitten-test#${speakerId}`,
  languageCode: 'en-US',
  name: `Synthetic Kitten ${speakerId}`,
  model: { kind: 'kitten', files: { ...files }, speakerId, espeakDataDir: path.join(dir, 'runtime', 'espeak-ng-data') },
});

async function speak(voice: TtsVoiceRef, text: string, options: Partial<TtsTask['options']> = {}) {
  const run = ++runs;
  const task: TtsTask = {
    kind: 'tts',
    textPath: path.join(dir, `in-${run}.txt`),
    outputPath: path.join(dir, `out-${run}.wav`),
    options: { ...OPTIONS, ...options },
    voice,
  };
  await writeFile(task.textPath, text);
  const outcome = await runTtsTask(task, () => undefined);
  const wav = readWavSamples(await readFile(task.outputPath));
  const peak = wav.samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
  return { outcome, result: outcome.result as Record<string, any>, wav, peak };
}

describe('the synthetic Kitten model generator', () => {
  it("rewrites only the ONNX metadata, to what sherpa-onnx's Kitten loader reads", async () => {
    const kokoro = await readFile(testModel('sherpa-synthetic/kokoro/model.onnx'));
    assert.equal(onnxMetadata(kokoro).model_type, 'kokoro');
    const model = makeKittenModel(kokoro);
    assert.deepEqual(onnxMetadata(model), kittenMetadata());
    assert.equal(onnxMetadata(model).style_dim, '1,32');
    assert.equal(onnxMetadata(model).n_speakers, '8');
    const rest = (bytes: Buffer) =>
      protobufFields(bytes)
        .filter((f) => f.number !== 14)
        .map((f) => f.raw.toString('hex'));
    assert.deepEqual(rest(model), rest(kokoro), 'the graph, opsets and producer are copied byte for byte');
    assert.deepEqual(onnxMetadata(withOnnxMetadata(model, { a: 'b' })), { a: 'b' });
  });

  it('writes 8 speakers × 32 seeded floats into voices.bin', () => {
    assert.equal(makeKittenVoices().length, KITTEN_SPEAKERS.length * 32 * 4);
    assert.deepEqual(makeKittenVoices(), makeKittenVoices());
    assert.notDeepEqual(makeKittenVoices(1), makeKittenVoices(2));
  });
});

describe('Kitten voices through sherpa-onnx (random weights: structure only)', () => {
  it('speaks at 24 kHz, not silent, longer for longer text', async () => {
    const short = await speak(kitten(0), 'Hello there.');
    assert.equal(short.outcome.backend, 'sherpa-onnx');
    assert.equal(short.wav.info.sampleRate, 24000);
    assert.ok(short.peak > 1000, `peak ${short.peak}`);
    const long = await speak(
      kitten(0),
      'Hello there. This sentence is a good deal longer than the first one, with many more words to say.',
    );
    assert.ok(
      long.result.durationSeconds > short.result.durationSeconds * 2,
      `${short.result.durationSeconds} s, then ${long.result.durationSeconds} s`,
    );
  });

  it('gives each speaker its own style row, and is shorter at speed 2', async () => {
    const text = 'Every speaker has a voice of its own.';
    const [first, last] = [await speak(kitten(0), text), await speak(kitten(7), text)];
    assert.notDeepEqual(first.wav.samples, last.wav.samples, 'speaker 7 sounds like speaker 0');
    const fast = await speak(kitten(7), text, { speed: 2 });
    assert.ok(
      fast.result.durationSeconds < last.result.durationSeconds * 0.7,
      `${fast.result.durationSeconds} s at speed 2, ${last.result.durationSeconds} s at 1`,
    );
  });

  it('refuses a speaker the model does not have', async () => {
    await assert.rejects(
      speak(kitten(8), 'Hello.'),
      (error: unknown) => error instanceof UserFacingError && /speaker 8, but its model has 8/.test(error.message),
    );
  });
});
