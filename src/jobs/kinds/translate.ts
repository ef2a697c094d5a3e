/** The `translate` job kind: a subtitle file, copied into the job's folder, translated to where the user asked (src/jobs/translate-job.ts admits it). */
import { promises as fs } from 'node:fs';
import type { SubtitleStyle } from '../../contract/subtitle-style';
import type { TranslateResult } from '../../engine-api/protocol';
import { isCount, isLocalOrigin, isObject, isSafeFileName, isString } from './checks';
import { isKind, type JobKindModule, type LocalOrigin, type NewJob } from './job-kind';

/** A subtitle translation: the file is copied into the job folder, the result written where asked. */
export interface TranslateJobInput {
  kind: 'translate';
  /** The subtitle file as given, and where the translation goes (absolute). */
  input: string;
  out: string;
  /** The copy in the job's folder. */
  inputFile: string;
  format: 'srt' | 'vtt';
  cues: number;
  modelPath: string;
  to: string;
  from?: string;
  style: SubtitleStyle;
}

/** An admitted subtitle translation; only the editor and the CLI make them. */
export interface NewTranslateJob extends NewJob {
  origin: LocalOrigin;
  name: string;
  /** The subtitle file's text, copied into the job's folder (the engine never reads the user's file). */
  source: string;
  input: Omit<TranslateJobInput, 'kind' | 'inputFile'>;
}

const isTranslate = isKind('translate');

export const translateKind: JobKindModule<'translate', TranslateJobInput, TranslateResult, NewTranslateJob> = {
  kind: 'translate',
  seedKind: null,
  label: 'Translation',
  noun: 'translation',
  phrase: 'a subtitle translation',
  openWith: 'editor',

  async input(job, folder) {
    const inputFile = `source.${job.input.format}`;
    await fs.writeFile(folder.file(inputFile), job.source, 'utf8');
    return { input: { kind: 'translate', ...job.input, inputFile }, name: job.name };
  },

  task: (job, paths) => {
    const input = job.input;
    return {
      kind: 'translate',
      inputPath: paths.file(job.id, input.inputFile),
      format: input.format,
      outputPath: input.out,
      modelPath: input.modelPath,
      to: input.to,
      ...(input.from ? { from: input.from } : {}),
      style: input.style,
    };
  },

  outputFile: () => null,
  userOutput: (job) => job.input.out,

  inputProblem(input, origin) {
    if (!isLocalOrigin(origin)) return 'origin: a translation job comes from the editor or the command line';
    if (!(
      isString(input.input) &&
      isString(input.out) &&
      isSafeFileName(input.inputFile) &&
      isString(input.modelPath) &&
      isString(input.to) &&
      isObject(input.style)
    ))
      return 'input: is not a subtitle translation';
    if (!(input.format === 'srt' || input.format === 'vtt') || !isCount(input.cues))
      return 'input: lacks the subtitle format or cue count';
    return undefined;
  },

  resultOf(job) {
    return isTranslate(job) ? job.result : null;
  },
};
