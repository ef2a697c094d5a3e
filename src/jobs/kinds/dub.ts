/** The `dub` job kind: a video dubbed into another language, its copy written where the user asked (src/jobs/dub-job.ts admits it). */
import { promises as fs } from 'node:fs';
import type { SubtitleStyle } from '../../contract/subtitle-style';
import type { DubResult } from '../../engine-api/protocol';
import type { DubMix, DubVoiceChoices } from '../../engine-api/dub-types';
import { isLocalOrigin, isObject, isString } from './checks';
import { isKind, type JobKindModule, type LocalOrigin, type NewJob } from './job-kind';

/** A dub of a video: the subtitles, when given, are copied into the job folder; the copy is written where asked. */
export interface DubJobInput {
  kind: 'dub';
  /** The video as given, and where its dubbed copy goes (absolute). */
  input: string;
  out: string;
  /** The subtitles to dub from, as given, and their copy in the job's folder; absent: the video is transcribed. */
  subtitles?: string;
  subtitlesFile?: string;
  subtitlesFormat?: 'srt' | 'vtt';
  /** The recognizer that transcribes when no subtitles are given. */
  sttModelPath?: string;
  modelPath: string;
  to: string;
  from?: string;
  mix: DubMix;
  /** The library voices of the target language, chosen when the job was created. */
  voices: DubVoiceChoices;
  style: SubtitleStyle;
}

/** An admitted dub; only the editor and the CLI make them. */
export interface NewDubJob extends NewJob {
  origin: LocalOrigin;
  name: string;
  /** The subtitles' text when the dub speaks given subtitles, copied into the job's folder. */
  subtitlesText?: string;
  input: Omit<DubJobInput, 'kind' | 'subtitlesFile'>;
}

const isDub = isKind('dub');

export const dubKind: JobKindModule<'dub', DubJobInput, DubResult, NewDubJob> = {
  kind: 'dub',
  seedKind: null,
  label: 'Dub',
  noun: 'dub',
  phrase: 'a dub',
  openWith: 'editor',

  /** Given subtitles go to the job's folder (the video is read where it is). */
  async input(job, folder) {
    let subtitlesFile: string | undefined;
    if (job.subtitlesText !== undefined && job.input.subtitlesFormat) {
      subtitlesFile = `subtitles.${job.input.subtitlesFormat}`;
      await fs.writeFile(folder.file(subtitlesFile), job.subtitlesText, 'utf8');
    }
    return { input: { kind: 'dub', ...job.input, ...(subtitlesFile ? { subtitlesFile } : {}) }, name: job.name };
  },

  task: (job, paths) => {
    const input = job.input;
    return {
      kind: 'dub',
      videoPath: input.input,
      outputPath: input.out,
      workDir: paths.dir(job.id),
      modelPath: input.modelPath,
      to: input.to,
      mix: input.mix,
      voices: input.voices,
      style: input.style,
      ...(input.from ? { from: input.from } : {}),
      ...(input.subtitlesFile
        ? { subtitlesPath: paths.file(job.id, input.subtitlesFile), subtitlesFormat: input.subtitlesFormat }
        : {}),
      ...(input.sttModelPath ? { sttModelPath: input.sttModelPath } : {}),
    };
  },

  outputFile: () => null,
  userOutput: (job) => job.input.out,

  inputProblem(input, origin) {
    if (!isLocalOrigin(origin)) return 'origin: a dub job comes from the editor or the command line';
    if (!(
      isString(input.input) &&
      isString(input.out) &&
      isString(input.modelPath) &&
      isString(input.to) &&
      isObject(input.style) &&
      isObject(input.voices)
    ))
      return 'input: is not a dub';
    if (!(input.mix === 'duck' || input.mix === 'replace')) return "input: lacks the dub's mix";
    return undefined;
  },

  resultOf(job) {
    return isDub(job) ? job.result : null;
  },
};
