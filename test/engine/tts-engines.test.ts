import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import { readWavSamples } from '../../src/audio/wav-reader';
import { UserFacingError, type TtsTask, type TtsVoiceRef } from '../../src/engine-api/protocol';
import { ensureEspeakData } from '../../src/engine/tts/synthesizers/espeak-data';
import { recordText } from '../../src/engine/tts/record-text';
import { runTtsTask } from '../../src/engine/tts/run-tts';
import type { SpeechEngine } from '../../src/engine/tts/synthesizers/synthesizer';
import { startLocalFront, startThreadFront } from '../../src/engine/tts/speech-front';
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
  denoise: true,
  preprocessPrompt: true,
  postprocessOutput: true,
  trimSilence: true,
};
const SENTENCE = 'Speech Studio reads this sentence aloud.';

let dir: string;
let espeakData: string;
let runs = 0;
before(async () => {
  dir = await tempDir('tts-engines-');
  espeakData = path.join(dir, 'runtime', 'espeak-ng-data');
});
after(() => rm(dir, { recursive: true, force: true }));

async function speak(voice: TtsVoiceRef, options: Partial<TtsTask['options']> = {}, text = SENTENCE) {
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
  return {
    outcome,
    result: outcome.result as Record<string, any>,
    wav: readWavSamples(await readFile(task.outputPath)),
  };
}

const synthetic = (file: string): string => testModel(`sherpa-synthetic/${file}`);
const neural = (kind: 'vits' | 'kokoro' | 'matcha', files: Record<string, string>, speakerId = 0): TtsVoiceRef => ({
  engine: 'sherpa-onnx',
  engineVoiceId: `test-${kind}`,
  languageCode: 'en-US',
  name: `Synthetic ${kind}`,
  model: { kind, files, speakerId, espeakDataDir: espeakData },
});

describe('Flite voices (WASI)', () => {
  const slt: TtsVoiceRef = { engine: 'flite', engineVoiceId: 'slt', languageCode: 'en-US', name: 'Flite SLT' };

  it('speaks with Flite at its own rate, faster at speed 2', async () => {
    const normal = await speak(slt);
    assert.equal(normal.outcome.backend, 'flite');
    assert.deepEqual(normal.result.speed, { value: 1, method: 'engine-rate' });
    assert.equal(normal.wav.info.sampleRate, 24000);
    const fast = await speak(slt, { speed: 2 });
    assert.ok(
      fast.result.durationSeconds < normal.result.durationSeconds * 0.65,
      `${fast.result.durationSeconds} vs ${normal.result.durationSeconds}`,
    );
  });

  it('ignores a language Flite cannot speak, and says so', async () => {
    const { result } = await speak(slt, { language: 'de' });
    assert.equal(result.language, 'en-US');
    assert.match(result.ignoredOptions.language, /speaks en-US only/);
  });
});

describe('neural voices through sherpa-onnx (random-weight models: structure only)', () => {
  it("unpacks espeak-ng's phoneme data from the npm package once", async () => {
    await ensureEspeakData(espeakData);
    assert.ok(existsSync(path.join(espeakData, 'phontab')) && existsSync(path.join(espeakData, 'en_dict')));
    const before = (await stat(path.join(espeakData, 'phontab'))).mtimeMs;
    await ensureEspeakData(espeakData);
    assert.equal((await stat(path.join(espeakData, 'phontab'))).mtimeMs, before, 'not unpacked again');
  });

  it('runs a Piper (VITS) voice, a Kokoro speaker and a Matcha voice end to end', async () => {
    const voices = [
      neural('vits', { model: synthetic('vits-piper/model.onnx'), tokens: synthetic('vits-piper/tokens.txt') }),
      neural(
        'kokoro',
        {
          model: synthetic('kokoro/model.onnx'),
          voices: synthetic('kokoro/voices.bin'),
          tokens: synthetic('kokoro/tokens.txt'),
        },
        1,
      ),
      neural('matcha', {
        acousticModel: synthetic('matcha/acoustic.onnx'),
        vocoder: synthetic('matcha/vocoder.onnx'),
        tokens: synthetic('matcha/tokens.txt'),
      }),
    ];
    for (const voice of voices) {
      const { outcome, result, wav } = await speak(voice, { trimSilence: false, steps: 16 });
      assert.equal(outcome.backend, 'sherpa-onnx');
      assert.equal(wav.info.sampleRate, 24000);
      assert.ok(result.durationSeconds > 0.5, `${voice.name}: ${result.durationSeconds} s`);
      assert.match(result.ignoredOptions.steps, /only ZipVoice/);
    }
  });

  it("makes a Piper voice shorter at speed 2 with the model's own length scale", async () => {
    const voice = neural('vits', {
      model: synthetic('vits-piper/model.onnx'),
      tokens: synthetic('vits-piper/tokens.txt'),
    });
    const normal = await speak(voice, { trimSilence: false, postprocessOutput: false });
    const fast = await speak(voice, { trimSilence: false, postprocessOutput: false, speed: 2 });
    assert.ok(fast.result.durationSeconds < normal.result.durationSeconds * 0.7);
  });

  it('refuses a speaker the model does not have, and a model whose files are gone', async () => {
    const files = {
      model: synthetic('kokoro/model.onnx'),
      voices: synthetic('kokoro/voices.bin'),
      tokens: synthetic('kokoro/tokens.txt'),
    };
    await assert.rejects(
      speak(neural('kokoro', files, 9)),
      (error: unknown) => error instanceof UserFacingError && /speaker 9, but its model has 2/.test(error.message),
    );
    await assert.rejects(
      speak(neural('vits', { model: path.join(dir, 'gone.onnx'), tokens: synthetic('vits-piper/tokens.txt') })),
      (error: unknown) =>
        error instanceof UserFacingError && /is not installed: .*gone\.onnx is missing/.test(error.message),
    );
  });
});

describe('SVOX Pico', () => {
  it('says which lingware is missing, and fails readably on lingware it cannot load', async () => {
    const pico = path.join(dir, 'pico');
    await mkdir(pico, { recursive: true });
    const voice: TtsVoiceRef = {
      engine: 'svox-pico',
      engineVoiceId: 'en-US',
      languageCode: 'en-US',
      name: 'English (America) – SVOX Pico',
      model: { textAnalysis: path.join(pico, 'en-US_ta.bin'), signalGeneration: path.join(pico, 'en-US_lh0_sg.bin') },
    };
    await assert.rejects(
      speak(voice),
      (error: unknown) =>
        error instanceof UserFacingError && /not installed: its lingware .*en-US_ta\.bin/.test(error.message),
    );
    await writeFile(path.join(pico, 'en-US_ta.bin'), Buffer.alloc(4096, 7));
    await writeFile(path.join(pico, 'en-US_lh0_sg.bin'), Buffer.alloc(4096, 7));
    await assert.rejects(
      speak(voice),
      (error: unknown) =>
        error instanceof UserFacingError &&
        /cannot be loaded: SVOX Pico could not load en-US_ta\.bin/.test(error.message),
    );
  });
});

describe('the first pass for engines without a rate of their own', () => {
  it('time-stretches the speech, keeping its pitch, to 1/speed of its length, in this thread or the audio thread', async () => {
    const rate = 16000;
    const tone = Int16Array.from({ length: rate }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 200 * i) / rate)),
    );
    const engine: SpeechEngine = {
      backend: 'test',
      sampleRate: rate,
      nativeSpeed: false,
      synthesize: async () => tone,
    };
    const lengths: number[] = [];
    for (const [speed, start] of [
      [1, startLocalFront],
      [2, startLocalFront],
      [2, startThreadFront],
    ] as const) {
      const spoolPath = path.join(dir, `stretch-${speed}-${lengths.length}.pcm`);
      const front = await start({
        spoolPath,
        inputRate: rate,
        outputRate: 24000,
        stretch: speed,
        trimSilence: false,
        denoise: false,
      });
      await recordText(['one', 'two'], engine, front, { speed, onChunk: () => undefined });
      const summary = await front.finish();
      assert.equal(summary.sampleRate, 24000);
      assert.equal((await stat(spoolPath)).size, summary.length * 2);
      lengths.push(summary.length / 24000);
    }
    assert.ok(Math.abs(lengths[0] - 2.3) < 0.01, `speed 1: ${lengths[0]} s (two chunks and a pause)`);
    assert.ok(Math.abs(lengths[1] - lengths[0] / 2) < 0.03, `speed 2: ${lengths[1]} s`);
    assert.ok(
      Math.abs(lengths[2] - lengths[1]) < 0.01,
      'the audio thread gives the same result (Sonic may end a few samples apart)',
    );
  });
});
