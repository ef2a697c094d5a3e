/**
 * The live-window engine task in a real engine process with the synthetic whisper model and the real Silero
 * VAD: turn detection's VAD covers only the window from `speechFrom`, a partial decode only the window from
 * `decodeFrom`, and `maxTokens` caps what a partial decode keeps.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import type { LiveWindowTask } from '../../src/engine-api/protocol';
import { EngineHost } from '../../src/jobs/engine-host';
import { silentLogger } from '../../src/util/log';
import { ENGINE_WORKER } from '../helpers/server';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

const RATE = 16_000;

describe('the live-window engine task', () => {
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: engineConfigFromEnvironment(process.env, { sttThreads: 2 }),
  });
  let dir = '';
  let modelPath = '';
  let jfkPath = '';
  let silencePath = '';

  before(async () => {
    dir = await tempDir('speech-studio-live-window-');
    await mkdir(path.join(dir, 'models', 'whisper'), { recursive: true });
    await mkdir(path.join(dir, 'models', 'vad'), { recursive: true });
    modelPath = path.join(dir, 'models', 'whisper', 'ggml-synthetic-random.bin');
    await symlink(testModel('whisper', 'ggml-synthetic-random.bin'), modelPath);
    await copyFile(
      testModel('vad', 'ggml-silero-v6.2.0.bin'),
      path.join(dir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );
    const wav = await readFile(testModel('audio', 'jfk.wav'));
    const at = wav.indexOf('data') + 8;
    jfkPath = path.join(dir, 'jfk.pcm');
    await writeFile(jfkPath, wav.subarray(at, at + (wav.readUInt32LE(at - 4) & ~1)));
    silencePath = path.join(dir, 'silence.pcm');
    await writeFile(silencePath, Buffer.alloc(2 * 3 * RATE));
  });
  after(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (task: Omit<LiveWindowTask, 'kind' | 'modelPath' | 'language' | 'vadThreshold'>) =>
    (
      await host.run(
        `live-${Math.random()}`,
        { kind: 'live-window', modelPath, language: 'en', vadThreshold: 0.5, ...task },
        { signal: new AbortController().signal, onProgress: () => undefined },
      )
    ).result;

  it('finds speech only from speechFrom on, in seconds of the whole window', async () => {
    const whole = await run({ pcmPath: jfkPath, decode: false });
    assert.ok(whole.speech && whole.speech.length >= 2 && whole.speech[0].start < 1, JSON.stringify(whole.speech));
    const tail = await run({ pcmPath: jfkPath, decode: false, speechFrom: 8 });
    assert.ok(tail.speech && tail.speech.length >= 1, JSON.stringify(tail.speech));
    for (const range of tail.speech) assert.ok(range.start >= 8 && range.end <= 11.01, JSON.stringify(tail.speech));
  });

  it('decodes only from decodeFrom on: the words lie after it', async () => {
    const result = await run({ pcmPath: jfkPath, decode: true, preview: true, decodeFrom: 6 });
    assert.ok(result.words.length > 0, JSON.stringify(result));
    for (const word of result.words) assert.ok(word.start >= 6, JSON.stringify(result.words));
  });

  it('keeps at most maxTokens tokens of a partial decode', async () => {
    // The random-weight model reads 3 s of silence as more than one token; capped at one, one word is left.
    const free = await run({ pcmPath: silencePath, decode: true, preview: true });
    assert.ok(
      free.words.length >= 2,
      `the uncapped decode must hold at least two words for this test to mean anything: ${JSON.stringify(free.words)}`,
    );
    const capped = await run({ pcmPath: silencePath, decode: true, preview: true, maxTokens: 1 });
    assert.equal(capped.words.length, 1, JSON.stringify(capped.words));
    assert.equal(capped.words[0].text, free.words[0].text);
  });
});
