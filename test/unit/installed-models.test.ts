import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { chooseWhisperModel, listWhisperModels, type InstalledWhisperModel } from '../../src/models/installed-models';
import { tempDir } from '../helpers/temp';

const model = (name: string): InstalledWhisperModel => ({
  name,
  path: `/m/${name}`,
  bytes: 1,
  englishOnly: /\.en\./.test(name),
});

describe('installed whisper models', () => {
  let dir: string;
  after(() => rm(dir, { recursive: true, force: true }));

  it('lists only files with the ggml magic in models/whisper', async () => {
    dir = await tempDir();
    const whisper = path.join(dir, 'models', 'whisper');
    await mkdir(path.join(whisper, 'folder.bin'), { recursive: true });
    await writeFile(path.join(whisper, 'ggml-tiny.en.bin'), Buffer.concat([Buffer.from('lmgg'), Buffer.alloc(10)]));
    await writeFile(path.join(whisper, 'notes.txt'), 'not a model');
    await writeFile(path.join(whisper, 'short.bin'), 'lm');
    const models = await listWhisperModels(dir);
    assert.deepEqual(
      models.map((m) => [m.name, m.englishOnly, m.bytes]),
      [['ggml-tiny.en.bin', true, 14]],
    );
    assert.deepEqual(await listWhisperModels(path.join(dir, 'nowhere')), []);
  });

  it('prefers the configured model, then the largest that fits the language', () => {
    const models = ['ggml-tiny.bin', 'ggml-base.en.bin', 'ggml-small.bin', 'ggml-base.bin'].map(model);
    assert.equal(chooseWhisperModel(models, 'en')?.name, 'ggml-small.bin');
    assert.equal(chooseWhisperModel(models, 'de')?.name, 'ggml-small.bin');
    assert.equal(chooseWhisperModel(models, 'auto', 'ggml-tiny.bin')?.name, 'ggml-tiny.bin');
    assert.equal(chooseWhisperModel(models, 'auto', 'missing.bin')?.name, 'ggml-small.bin');
    const base = ['ggml-base.bin', 'ggml-base.en.bin'].map(model);
    assert.equal(chooseWhisperModel(base, 'en-US')?.name, 'ggml-base.en.bin');
    assert.equal(chooseWhisperModel(base, 'fr')?.name, 'ggml-base.bin');
    assert.equal(chooseWhisperModel([model('ggml-tiny.en.bin')], 'fr'), undefined);
    assert.equal(chooseWhisperModel([model('custom-finetune.bin')], 'auto')?.name, 'custom-finetune.bin');
  });
});
