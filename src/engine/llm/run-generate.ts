/**
 * Not a job: one answer from the language model under a JSON-schema grammar, measured (tokens, time, the
 * engine's peak memory). The bench compares it with node-llama-cpp called directly.
 */
import type { LlmGenerateResult, LlmGenerateTask, TaskOutcome } from '../../engine-api/protocol';
import { LLM_BACKEND } from '../../engine-api/protocol';
import { answerAsJson, warmModel } from './llama-runtime';

export async function runLlmGenerateTask(task: LlmGenerateTask): Promise<TaskOutcome<LlmGenerateResult>> {
  await warmModel(task.modelPath);
  const started = process.hrtime.bigint();
  const answer = await answerAsJson(task.modelPath, task.prompt, task.schema, task.maxTokens);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    backend: LLM_BACKEND,
    result: {
      text: answer.text,
      tokens: answer.tokens,
      seconds,
      engineMaxRssBytes: process.resourceUsage().maxRSS * 1024,
    },
  };
}
