/**
 * The tiny random-weight GGUF language model for tests and the bench, generated once into a cache outside
 * the project (the generator is test/fixtures/llm/make-tiny-gguf.ts; the file itself is never committed).
 */
import { cachedModelFile } from './generated-model';
import { makeTinyGguf } from '../fixtures/llm/make-tiny-gguf';

/** The file name the model is installed under in tests (`<data-dir>/models/llm/<name>`). */
export const TINY_LLM_NAME = 'tiny-random-llama.gguf';

let made: Promise<string> | null = null;

/** The path of the generated model; the same bytes always land at the same path, so it is made once. */
export function tinyLlmModel(): Promise<string> {
  made ??= generate();
  return made;
}

function generate(): Promise<string> {
  return cachedModelFile('llm', TINY_LLM_NAME, makeTinyGguf());
}
