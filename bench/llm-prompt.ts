/** The one request the `llm` bench times, through our engine and through node-llama-cpp directly. */
import { answerSchema, cueInContext, translationPrompt } from '../src/translate/translate-prompt';

export const LLM_BENCH_PROMPT = translationPrompt(
  cueInContext(
    [
      'And so, my fellow Americans,',
      'ask not what your country can do for you,',
      'ask what you can do for your country.',
    ],
    1,
  ),
  'de',
  'en',
);
export const LLM_BENCH_SCHEMA = answerSchema(200);
export const LLM_BENCH_MAX_TOKENS = 1300;
