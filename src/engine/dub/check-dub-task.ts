/**
 * The engine's own check of a dub task: a store record edited by hand, or a caller that skipped admission
 * (src/jobs/dub-job.ts), gets no further than a sentence saying what is wrong.
 */
import { isAbsolute } from 'node:path';
import { resolveStyle, type SubtitleStyle } from '../../contract/subtitle-style';
import { UserFacingError } from '../../engine-api/protocol';
import type { TtsVoiceRef } from '../../voices/voice-ref';
import { DUB_MIXES, type DubMix, type DubTask, type DubVoiceChoices } from '../../engine-api/dub-types';

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const absolute = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || !isAbsolute(value))
    throw new UserFacingError(`The dub needs the absolute path of ${what}.`);
  return value;
};

const isVoiceRef = (value: unknown): value is TtsVoiceRef =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TtsVoiceRef).engine === 'string' &&
  typeof (value as TtsVoiceRef).engineVoiceId === 'string';

function checkVoices(value: unknown): DubVoiceChoices {
  const voices = value as Partial<Record<keyof DubVoiceChoices, unknown>> | null;
  const lists = [voices?.female, voices?.male, voices?.other];
  if (!lists.every((list) => Array.isArray(list) && list.every(isVoiceRef)))
    throw new UserFacingError("The dub's voices are not lists of voices.");
  if (lists.every((list) => (list as unknown[]).length === 0))
    throw new UserFacingError('The dub has no voice to speak with.');
  return {
    female: voices!.female as TtsVoiceRef[],
    male: voices!.male as TtsVoiceRef[],
    other: voices!.other as TtsVoiceRef[],
  };
}

export function checkDubTask(task: Record<string, unknown>): DubTask {
  const videoPath = absolute(task.videoPath, 'the video');
  const outputPath = absolute(task.outputPath, 'the dubbed copy');
  const workDir = absolute(task.workDir, "the job's folder");
  const modelPath = absolute(task.modelPath, 'the language model');
  const subtitlesPath = task.subtitlesPath === undefined ? undefined : absolute(task.subtitlesPath, 'the subtitles');
  const sttModelPath =
    task.sttModelPath === undefined ? undefined : absolute(task.sttModelPath, 'the speech recognition model');
  if (!subtitlesPath && !sttModelPath)
    throw new UserFacingError('The dub needs subtitles or a speech recognition model to transcribe the video.');
  if (subtitlesPath && task.subtitlesFormat !== 'srt' && task.subtitlesFormat !== 'vtt')
    throw new UserFacingError(`The subtitle format must be srt or vtt, got ${String(task.subtitlesFormat)}.`);
  if (typeof task.to !== 'string' || !LANGUAGE_TAG.test(task.to))
    throw new UserFacingError(`The language to dub into must be a language tag such as de, got ${String(task.to)}.`);
  const from: unknown = task.from; // for the message: inside the check task.from is typed {}, which the linter will not let String() print
  if (task.from !== undefined && (typeof task.from !== 'string' || !LANGUAGE_TAG.test(task.from)))
    throw new UserFacingError(`The source language must be a language tag such as en, got ${String(from)}.`);
  if (!DUB_MIXES.includes(task.mix as DubMix))
    throw new UserFacingError(`The mix must be ${DUB_MIXES.join(' or ')}, got ${String(task.mix)}.`);
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
    kind: 'dub',
    videoPath,
    outputPath,
    workDir,
    modelPath,
    to: task.to,
    mix: task.mix as DubMix,
    voices: checkVoices(task.voices),
    style,
    ...(subtitlesPath ? { subtitlesPath, subtitlesFormat: task.subtitlesFormat as 'srt' | 'vtt' } : {}),
    ...(sttModelPath ? { sttModelPath } : {}),
    ...(task.from ? { from: task.from } : {}),
  };
}
