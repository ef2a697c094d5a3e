import assert from 'node:assert/strict';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { initParakeet, type ParakeetContext } from '@fugood/whisper.node';
import { readWavSamples } from '../../src/audio/wav-reader';
import { sttModelKind } from '../../src/engine/stt/stt-model-kind';
import { makeParakeetModel } from '../fixtures/parakeet/make-parakeet-model';
import { syntheticParakeetModel } from '../helpers/parakeet-model';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

describe('the synthetic Parakeet model (random weights, tiny dimensions)', () => {
  let model = '';
  let context: ParakeetContext | null = null;
  let dir = '';

  before(async () => {
    model = await syntheticParakeetModel();
    dir = await tempDir('speech-studio-parakeet-');
  });

  after(async () => {
    await context?.release();
    await rm(dir, { recursive: true, force: true });
  });

  it('is generated the same every time, so the cache can be keyed by its hash', () => {
    assert.deepEqual(makeParakeetModel(), makeParakeetModel());
    assert.notDeepEqual(makeParakeetModel(1), makeParakeetModel(2));
  });

  it('loads in the real parakeet.cpp and transcribes jfk.wav to some text with a time span', async () => {
    context = await initParakeet({ filePath: model, useGpu: false });
    const { samples } = readWavSamples(await readFile(testModel('audio', 'jfk.wav')));
    const pcm = samples.slice();
    const result = await context.transcribeData(pcm.buffer, { maxThreads: 2 }).promise;
    assert.equal(result.isAborted, false);
    assert.ok(result.result.trim().length > 0, 'the random model says something on speech');
    assert.ok(result.segments.length >= 1);
    assert.equal(result.segments[0]?.t0, 0);
    assert.ok(
      Math.abs((result.segments.at(-1)?.t1 ?? 0) - 11_000) < 100,
      `ends at the audio's end: ${JSON.stringify(result.segments)}`,
    );
  });

  it('is told apart from a whisper model by its header, whatever the file is called', async () => {
    assert.equal(sttModelKind(model), 'parakeet');
    assert.equal(sttModelKind(testModel('whisper', 'ggml-synthetic-random.bin')), 'whisper');
    const renamed = path.join(dir, 'ggml-base.en.bin');
    await copyFile(model, renamed);
    assert.equal(sttModelKind(renamed), 'parakeet');
    const gguf = path.join(dir, 'model.gguf');
    await writeFile(gguf, Buffer.from('GGUF\x03\x00\x00\x00'));
    assert.equal(sttModelKind(gguf), undefined, 'the binding cannot load GGUF');
    assert.equal(sttModelKind(path.join(dir, 'missing.bin')), undefined);
  });

  it('fails to load cleanly, not by crashing, when the file is cut in its weights', async () => {
    // (Cut before the first tensor, parakeet.cpp loads it as an "empty model for testing": only a cut in
    // the weights is refused, so installs rely on the catalog's size and hash checks.)
    const cut = path.join(dir, 'cut.bin');
    const whole = makeParakeetModel();
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await assert.rejects(initParakeet({ filePath: cut, useGpu: false }));
  });
});
