/**
 * Which recognizer the STT suites run on: whisper.cpp (the shared synthetic whisper model) by default, or
 * Parakeet (the generated synthetic Parakeet model) with SPEECH_TEST_STT_ENGINE=parakeet. The same test
 * files run once per engine (scripts/run-tests.mjs), each installing this engine's model as the only one.
 */
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { SYNTHETIC_PARAKEET_NAME, syntheticParakeetModel } from './parakeet-model';
import { testModel } from './test-models';

export const STT_ENGINE_ENV = 'SPEECH_TEST_STT_ENGINE';

export interface SttEngineUnderTest {
  name: 'whisper' | 'parakeet';
  /** The folder under `<data-dir>/models/` the model is installed in. */
  folder: 'whisper' | 'parakeet';
  /** The installed file's name (also the transcript's `model`). */
  modelName: string;
  /** The job's `backend`. */
  backend: string;
  /** The transcript's `backend`. */
  transcriptBackend: 'whisper.cpp' | 'parakeet';
  /** How the transcript's words are timed: by the recognizer's tokens, or estimated within its spans. */
  wordTiming: 'recognizer' | 'estimated';
  /** Whether it detects and reports the language for `auto` (Parakeet reports `und`). */
  detectsLanguage: boolean;
}

const WHISPER: SttEngineUnderTest = {
  name: 'whisper',
  folder: 'whisper',
  modelName: 'ggml-synthetic-random.bin',
  backend: 'whisper.cpp',
  transcriptBackend: 'whisper.cpp',
  wordTiming: 'recognizer',
  detectsLanguage: true,
};

const PARAKEET: SttEngineUnderTest = {
  name: 'parakeet',
  folder: 'parakeet',
  modelName: SYNTHETIC_PARAKEET_NAME,
  backend: `parakeet (${SYNTHETIC_PARAKEET_NAME})`,
  transcriptBackend: 'parakeet',
  wordTiming: 'estimated',
  detectsLanguage: false,
};

/** The engine this run tests. */
export function sttEngineUnderTest(env: NodeJS.ProcessEnv = process.env): SttEngineUnderTest {
  const name = env[STT_ENGINE_ENV]?.trim() || 'whisper';
  if (name === 'whisper') return WHISPER;
  if (name === 'parakeet') return PARAKEET;
  throw new Error(`${STT_ENGINE_ENV} must be whisper or parakeet, not ${JSON.stringify(name)}.`);
}

/** The model file of `engine` (generated for Parakeet, the shared one for whisper). */
export async function sttModelSource(engine: SttEngineUnderTest = sttEngineUnderTest()): Promise<string> {
  return engine.name === 'parakeet' ? syntheticParakeetModel() : testModel('whisper', WHISPER.modelName);
}

/** Installs the engine's model in `<dataDir>/models/<folder>/` as a link; returns the installed path. */
export async function installSttModel(
  dataDir: string,
  engine: SttEngineUnderTest = sttEngineUnderTest(),
): Promise<string> {
  const dir = path.join(dataDir, 'models', engine.folder);
  await mkdir(dir, { recursive: true });
  const installed = path.join(dir, engine.modelName);
  await symlink(await sttModelSource(engine), installed);
  return installed;
}

/**
 * Why a container is not transcribed on this pass: the second (Parakeet) pass transcribes WAV only. Decoding
 * does not depend on the recognizer, and test/engine/stt-decode.test.ts proves the samples handed to it for
 * every container, so the other containers on Parakeet would prove the decoder again, not Parakeet.
 */
export function containerSkip(format: string, engine: SttEngineUnderTest = sttEngineUnderTest()): string | false {
  return engine.name === 'whisper' || format === 'wav'
    ? false
    : 'the decoder is the same for both recognizers: the whisper pass and stt-decode.test.ts cover this container';
}
