import { existsSync } from 'node:fs';
import path from 'node:path';

/** The shared test models: `$SPEECH_TEST_MODELS`, or `../shared/models` beside the project. */
export function testModelsDir(): string {
  const dir = process.env.SPEECH_TEST_MODELS ?? path.resolve(__dirname, '..', '..', '..', 'shared', 'models');
  if (!existsSync(dir)) throw new Error(`Test models not found at ${dir}; set SPEECH_TEST_MODELS.`);
  return dir;
}

export const testModel = (...parts: string[]): string => path.join(testModelsDir(), ...parts);
