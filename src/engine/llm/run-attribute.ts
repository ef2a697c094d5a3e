/**
 * Not a job: who speaks each quoted passage of a book, asked of the warm language model one quote at a time
 * under the attribution grammar, each new name offered to the next question so a character keeps one name.
 */
import path from 'node:path';
import {
  attributionPrompt,
  attributionSchema,
  MAX_SPEAKER_CHARS,
  NARRATOR,
  parseAttribution,
  type Attribution,
} from '../../cast/attribution-prompt';
import { MalformedAnswerError } from '../../translate/translate-prompt';
import {
  LLM_BACKEND,
  UserFacingError,
  type CastAttributeResult,
  type CastAttributeTask,
  type ProgressReporter,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { answerAsJson, warmModel } from './llama-runtime';

/** Tokens one answer may take: the name (each character possibly a 6-character escape), the two words, the JSON. */
const MAX_TOKENS = MAX_SPEAKER_CHARS * 6 + 64;

export function checkCastAttributeTask(task: Record<string, unknown>): CastAttributeTask {
  if (typeof task.modelPath !== 'string' || !path.isAbsolute(task.modelPath))
    throw new UserFacingError('Casting needs the absolute path of the language model.');
  const quotes = task.quotes;
  if (
    !Array.isArray(quotes) ||
    !quotes.every(
      (q: { quote?: unknown; context?: unknown } | null): q is CastAttributeTask['quotes'][number] =>
        typeof q?.quote === 'string' && typeof q?.context === 'string',
    )
  )
    throw new UserFacingError('Casting needs the quotes, each with its context.');
  const known = Array.isArray(task.known) ? task.known.filter((name): name is string => typeof name === 'string') : [];
  return { kind: 'cast-attribute', modelPath: task.modelPath, quotes, known };
}

export async function runCastAttributeTask(
  task: CastAttributeTask,
  report: ProgressReporter,
): Promise<TaskOutcome<CastAttributeResult>> {
  report('loading_model', 1);
  try {
    await warmModel(task.modelPath);
  } catch (error) {
    if (error instanceof UserFacingError) throw error;
    throw new UserFacingError(
      `The language model ${path.basename(task.modelPath)} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const known = new Set(task.known.filter((name) => name !== NARRATOR));
  const attributions: Attribution[] = [];
  let tokens = 0;
  for (const [i, quote] of task.quotes.entries()) {
    try {
      const answer = await answerAsJson(
        task.modelPath,
        attributionPrompt(quote, [...known]),
        attributionSchema(),
        MAX_TOKENS,
      );
      tokens += answer.tokens;
      const attribution = parseAttribution(answer.text);
      if (attribution.speaker !== NARRATOR) known.add(attribution.speaker);
      attributions.push(attribution);
    } catch (error) {
      if (error instanceof MalformedAnswerError)
        throw new UserFacingError(`${error.message}. Casting stopped; try again or choose another model.`);
      throw error;
    }
    report('casting', 5 + Math.floor(((i + 1) / task.quotes.length) * 94));
  }
  return { backend: LLM_BACKEND, result: { attributions, tokens } };
}
