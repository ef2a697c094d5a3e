import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { builtinCatalog } from '../../src/models/catalog';
import {
  chooseLanguageModel,
  installedLanguageModels,
  NoLanguageModelError,
  recommendLanguageModel,
  resolveLanguageModel,
} from '../../src/models/language-models';
import { tempDir } from '../helpers/temp';

const GB = 1024 ** 3;

/** `size` bytes that start as a GGUF file with one tensor and one metadata entry: what resolving checks. */
function ggufOfSize(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.write('GGUF', 0, 'latin1');
  bytes.writeUInt32LE(3, 4);
  bytes.writeBigUInt64LE(1n, 8);
  bytes.writeBigUInt64LE(1n, 16);
  return bytes;
}

describe('language model choice', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await tempDir('speech-llm-choice-');
    const dir = path.join(dataDir, 'models', 'llm');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'small.gguf'), ggufOfSize(100));
    await writeFile(path.join(dir, 'large.gguf'), ggufOfSize(300));
    await writeFile(path.join(dir, 'notes.txt'), 'not a model');
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('lists installed .gguf files, smallest first, and picks the largest within the memory share', async () => {
    const installed = await installedLanguageModels(dataDir);
    assert.deepEqual(
      installed.map((model) => path.basename(model.path)),
      ['small.gguf', 'large.gguf'],
    );
    assert.equal(path.basename(chooseLanguageModel(installed, 1000)!.path), 'large.gguf');
    assert.equal(path.basename(chooseLanguageModel(installed, 500)!.path), 'small.gguf');
    assert.equal(
      path.basename(chooseLanguageModel(installed, 10)!.path),
      'small.gguf',
      'none fits: the smallest, which may still run',
    );
    assert.equal(chooseLanguageModel([], 1000), undefined);
  });

  it('resolves a name, a path, or the choice; refuses an unknown model in a sentence', async () => {
    assert.equal(path.basename(await resolveLanguageModel(dataDir, 'small')), 'small.gguf');
    assert.equal(
      await resolveLanguageModel(dataDir, path.join(dataDir, 'models', 'llm', 'large.gguf')),
      path.join(dataDir, 'models', 'llm', 'large.gguf'),
    );
    await assert.rejects(resolveLanguageModel(dataDir, 'missing'), NoLanguageModelError);
    await assert.rejects(resolveLanguageModel(path.join(dataDir, 'nothing')), /No language model is installed/);
  });

  it('recommends the catalog model that fits the memory', () => {
    const catalog = builtinCatalog().models;
    assert.equal(catalog.filter((entry) => entry.kind === 'llm').length, 3);
    assert.equal(recommendLanguageModel(catalog, 4 * GB)?.id, 'qwen2.5-1.5b-instruct-q4');
    assert.equal(
      recommendLanguageModel(catalog, 2 * GB)?.id,
      'qwen2.5-1.5b-instruct-q4',
      'too little memory: still the smallest',
    );
    assert.ok(
      ['qwen2.5-3b-instruct-q4', 'llama-3.2-3b-instruct-q4'].includes(recommendLanguageModel(catalog, 16 * GB)!.id),
    );
  });
});
