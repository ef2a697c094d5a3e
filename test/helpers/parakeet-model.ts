/**
 * The synthetic random-weight Parakeet model for tests, generated once into a cache outside the project
 * (the generator lives in test/fixtures/parakeet/; the file itself is never committed).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeParakeetModel } from '../fixtures/parakeet/make-parakeet-model';

/** The file name the model is installed under in tests (`<data-dir>/models/parakeet/<name>`). */
export const SYNTHETIC_PARAKEET_NAME = 'ggml-parakeet-synthetic-random.bin';

let made: Promise<string> | null = null;

/** The path of the generated model; the same bytes always land at the same path, so it is made once. */
export function syntheticParakeetModel(): Promise<string> {
  made ??= generate();
  return made;
}

async function generate(): Promise<string> {
  const bytes = makeParakeetModel();
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), 'speech-studio-test-models', `parakeet-${digest}`);
  const file = path.join(dir, SYNTHETIC_PARAKEET_NAME);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  // Written beside and renamed, so a test file running in parallel never sees half a model.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return file;
}
