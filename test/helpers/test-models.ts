import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';

export const TEST_MODELS_ENV = 'SPEECH_TEST_MODELS';

/**
 * The shared test models and audio that cannot be downloaded here: `$SPEECH_TEST_MODELS`, or
 * `../shared/models` beside the project. Never copied into the project.
 */
export function testModelsDir(): string {
  const dir = process.env[TEST_MODELS_ENV] ?? path.resolve(__dirname, '..', '..', '..', 'shared', 'models');
  if (!existsSync(dir)) throw new Error(`Test models not found at ${dir}; set ${TEST_MODELS_ENV}.`);
  return dir;
}

/** A file of the test models, e.g. `testModel('audio', 'jfk.wav')` or `testModel('audio/jfk.wav')`. */
export function testModel(...parts: string[]): string {
  const file = path.join(testModelsDir(), ...parts);
  if (!existsSync(file)) throw new Error(`Test model missing: ${file}; set ${TEST_MODELS_ENV}.`);
  return file;
}

/** The shared synthetic whisper model, linked into a data directory's `models/whisper/` (no VAD beside it). */
export async function linkSyntheticWhisper(dataDir: string): Promise<string> {
  const dir = path.join(dataDir, 'models', 'whisper');
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, SYNTHETIC_WHISPER);
  await symlink(testModel('whisper', SYNTHETIC_WHISPER), target);
  return target;
}

export const SYNTHETIC_WHISPER = 'ggml-synthetic-random.bin';
