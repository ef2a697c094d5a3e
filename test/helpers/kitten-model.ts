/**
 * The synthetic random-weight Kitten TTS model for tests (generator in test/fixtures/kitten/), written
 * into a folder, or "installed" under a data directory with the catalog entry's real file names.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { builtinCatalog } from '../../src/models/catalog';
import { makeKittenModel, makeKittenVoices } from '../fixtures/kitten/make-kitten-model';
import { testModel } from './test-models';

export const KITTEN_CATALOG_ID = 'kitten-nano-en-v0.1-fp16';

export interface KittenFiles {
  model: string;
  voices: string;
  tokens: string;
}

/** Writes model, voices and tokens into `dir` under these names (default: the sherpa-onnx release's). */
export async function writeSyntheticKitten(
  dir: string,
  names = { model: 'model.fp16.onnx', voices: 'voices.bin', tokens: 'tokens.txt' },
): Promise<KittenFiles> {
  await mkdir(dir, { recursive: true });
  const files = {
    model: path.join(dir, names.model),
    voices: path.join(dir, names.voices),
    tokens: path.join(dir, names.tokens),
  };
  await writeFile(files.model, makeKittenModel(await readFile(testModel('sherpa-synthetic/kokoro/model.onnx'))));
  await writeFile(files.voices, makeKittenVoices());
  // Kokoro's and Kitten's tokens.txt are both espeak-ng IPA symbols with ids; the synthetic graph takes Kokoro's.
  await copyFile(testModel('sherpa-synthetic/kokoro/tokens.txt'), files.tokens);
  return files;
}

/** Puts the synthetic model where the catalog installs Kitten nano, so its 8 voices become ready. */
export async function installSyntheticKitten(dataDir: string): Promise<KittenFiles> {
  const entry = builtinCatalog().models.find((e) => e.id === KITTEN_CATALOG_ID);
  if (!entry) throw new Error(`The catalog has no ${KITTEN_CATALOG_ID}`);
  const target = (role: string) => entry.files.find((f) => f.role === role)!.target;
  const dir = path.join(dataDir, 'models', path.dirname(target('model')));
  return writeSyntheticKitten(dir, {
    model: path.basename(target('model')),
    voices: path.basename(target('voices')),
    tokens: path.basename(target('tokens')),
  });
}
