/**
 * The engine's own check of a language model task: a store record edited by hand, or a caller that skipped
 * admission, gets no further than a sentence saying what is wrong.
 */
import { isAbsolute } from 'node:path';
import { resolveStyle, type SubtitleStyle } from '../../contract/subtitle-style';
import type { LlmGenerateTask, TranslateTask } from '../../engine-api/protocol';
import { UserFacingError } from '../../engine-api/protocol';

const absolute = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || !isAbsolute(value))
    throw new UserFacingError(`The translation needs the absolute path of ${what}.`);
  return value;
};

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function checkTranslateTask(task: Record<string, unknown>): TranslateTask {
  const inputPath = absolute(task.inputPath, 'the subtitle file');
  const outputPath = absolute(task.outputPath, 'the translated file');
  const modelPath = absolute(task.modelPath, 'the language model');
  if (task.format !== 'srt' && task.format !== 'vtt')
    throw new UserFacingError(`The subtitle format must be srt or vtt, got ${String(task.format)}.`);
  if (typeof task.to !== 'string' || !LANGUAGE_TAG.test(task.to))
    throw new UserFacingError(
      `The language to translate into must be a language tag such as de, got ${String(task.to)}.`,
    );
  const from: unknown = task.from; // for the message: inside the check task.from is typed {}, which the linter will not let String() print
  if (task.from !== undefined && (typeof task.from !== 'string' || !LANGUAGE_TAG.test(task.from)))
    throw new UserFacingError(`The source language must be a language tag such as en, got ${String(from)}.`);
  let style: SubtitleStyle;
  try {
    if (typeof task.style !== 'object' || task.style === null) throw new Error('it is missing');
    style = resolveStyle('default', task.style);
  } catch (error) {
    throw new UserFacingError(
      `The subtitle style is not valid: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    kind: 'translate',
    inputPath,
    format: task.format,
    outputPath,
    modelPath,
    to: task.to,
    ...(task.from ? { from: task.from } : {}),
    style,
  };
}

export function checkLlmGenerateTask(task: Record<string, unknown>): LlmGenerateTask {
  const modelPath = absolute(task.modelPath, 'the language model');
  const prompt = task.prompt as { system?: unknown; user?: unknown } | undefined;
  if (typeof prompt?.system !== 'string' || typeof prompt.user !== 'string')
    throw new UserFacingError('The prompt needs a system and a user text.');
  if (typeof task.schema !== 'object' || task.schema === null)
    throw new UserFacingError('The answer needs a JSON schema.');
  const maxTokens = task.maxTokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > 8192)
    throw new UserFacingError(`maxTokens must be a whole number from 1 to 8192, got ${String(maxTokens)}.`);
  return {
    kind: 'llm-generate',
    modelPath,
    prompt: { system: prompt.system, user: prompt.user },
    schema: task.schema,
    maxTokens,
  };
}
