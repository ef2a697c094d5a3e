/** The engine's own check of a voice-reference task: absolute paths, a text and a language of sane size. */
import { isAbsolute } from 'node:path';
import { UserFacingError, type VoiceReferenceTask } from '../../engine-api/protocol';

const MAX_REFERENCE_TEXT = 2000;

function invalid(detail: string): UserFacingError {
  return new UserFacingError(`The voice cannot be made: ${detail}.`);
}

function absolute(task: Record<string, unknown>, name: string): string {
  const value = task[name];
  if (typeof value !== 'string' || !isAbsolute(value) || value.includes('\0'))
    throw invalid(`${name} is not an absolute path`);
  return value;
}

export function checkVoiceReferenceTask(task: Record<string, unknown>): VoiceReferenceTask {
  const { text, language, recognizerModelPath } = task;
  if (text !== undefined && (typeof text !== 'string' || text.length > MAX_REFERENCE_TEXT))
    throw invalid(`the text is not a text of at most ${MAX_REFERENCE_TEXT} characters`);
  if (language !== undefined && (typeof language !== 'string' || !/^[A-Za-z0-9-]{1,35}$/.test(language)))
    throw invalid('language is not a language code');
  return {
    kind: 'voice-reference',
    inputPath: absolute(task, 'inputPath'),
    outputPath: absolute(task, 'outputPath'),
    modelsDir: absolute(task, 'modelsDir'),
    ...(text ? { text: text } : {}),
    ...(language ? { language: language } : {}),
    ...(recognizerModelPath !== undefined ? { recognizerModelPath: absolute(task, 'recognizerModelPath') } : {}),
  };
}
