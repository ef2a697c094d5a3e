/**
 * The synthetic random-weight Parakeet model for tests, generated once into a cache outside the project
 * (the generator lives in test/fixtures/parakeet/; the file itself is never committed).
 */
import { cachedModelFile } from './generated-model';
import { makeParakeetModel } from '../fixtures/parakeet/make-parakeet-model';

/** The file name the model is installed under in tests (`<data-dir>/models/parakeet/<name>`). */
export const SYNTHETIC_PARAKEET_NAME = 'ggml-parakeet-synthetic-random.bin';

let made: Promise<string> | null = null;

/** The path of the generated model; the same bytes always land at the same path, so it is made once. */
export function syntheticParakeetModel(): Promise<string> {
  made ??= generate();
  return made;
}

function generate(): Promise<string> {
  return cachedModelFile('parakeet', SYNTHETIC_PARAKEET_NAME, makeParakeetModel());
}
