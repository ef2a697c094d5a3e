/**
 * Admission of verified takes for a book: the threshold and retakes checked, and how takes will be heard
 * chosen once, from what is installed: the recognizer that serves the book's language (the model STT
 * jobs would choose), else the espeak-ng aligner, which needs no model.
 */
import type { BookVerify } from '../audiobook/book-plan';
import { ManuscriptError } from '../audiobook/manuscript-files';
import { chooseWhisperModel, listSttModels } from '../models/installed-models';

/** What a door may ask: both optional (10 % — 25 % with the aligner — and 2 retakes when absent). */
export interface VerifyRequest {
  /** 0–1: the word error rate over which a take is retaken. */
  threshold?: number;
  /** 0–10: retakes after the first take, at most. */
  retakes?: number;
}

/**
 * Test hooks, never for use, handed down by the composition root (src/config/test-hooks.ts reads them there):
 * `corruptFirstTake` damages each paragraph's first take, so tests see it retaken with any voice.
 */
export interface VerifyTestHooks {
  corruptFirstTake?: boolean;
}

export const DEFAULT_VERIFY_THRESHOLD = 0.1;
/**
 * The aligner hears phrases of three words, not words, and misplaces one now and then in a good take (up to
 * about a sixth of a short paragraph's words on espeak-ng takes), while a take missing a third of its words
 * loses more than a third: its default sits between the two.
 */
export const DEFAULT_ALIGNER_THRESHOLD = 0.25;
export const DEFAULT_VERIFY_RETAKES = 2;
export const MAX_VERIFY_RETAKES = 10;

/** The verification the engine runs, or a ManuscriptError with one sentence. */
export async function admitVerify(
  request: VerifyRequest,
  dataDir: string,
  language: string,
  hooks: VerifyTestHooks = {},
): Promise<BookVerify> {
  const model = chooseWhisperModel(await listSttModels(dataDir), language);
  const threshold = request.threshold ?? (model ? DEFAULT_VERIFY_THRESHOLD : DEFAULT_ALIGNER_THRESHOLD);
  const retakes = request.retakes ?? DEFAULT_VERIFY_RETAKES;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new ManuscriptError(
      `The verify threshold is a word error rate from 0 to 1 (0.1 is 10 %), not ${String(threshold).slice(0, 40)}.`,
    );
  }
  if (!Number.isInteger(retakes) || retakes < 0 || retakes > MAX_VERIFY_RETAKES) {
    throw new ManuscriptError(
      `The verify retakes are a whole number from 0 to ${MAX_VERIFY_RETAKES}, not ${String(retakes).slice(0, 40)}.`,
    );
  }
  return {
    threshold,
    retakes,
    scorer: model
      ? { kind: 'recognizer', modelPath: model.path, model: model.name, language }
      : { kind: 'aligner', language },
    ...(hooks.corruptFirstTake ? { corruptFirstTake: true } : {}),
  };
}
