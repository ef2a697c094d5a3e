/**
 * The tiny random-weight GGUF language model for tests and the bench, generated once into a cache outside
 * the project (the generator is test/fixtures/llm/make-tiny-gguf.ts; the file itself is never committed).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeTinyGguf } from '../fixtures/llm/make-tiny-gguf';

/** The file name the model is installed under in tests (`<data-dir>/models/llm/<name>`). */
export const TINY_LLM_NAME = 'tiny-random-llama.gguf';

let made: Promise<string> | null = null;

/** The path of the generated model; the same bytes always land at the same path, so it is made once. */
export function tinyLlmModel(): Promise<string> {
  made ??= generate();
  return made;
}

async function generate(): Promise<string> {
  const bytes = makeTinyGguf();
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), 'speech-studio-test-models', `llm-${digest}`);
  const file = path.join(dir, TINY_LLM_NAME);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  // Written beside and renamed, so a test file running in parallel never sees half a model.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return file;
}
