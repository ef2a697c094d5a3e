/**
 * The `align` job kind: a script (text or subtitles) timed against media in the job's folder, written as a
 * transcript beside it. On the seed's routes it is the `stt` job the seed knows (POST /align/jobs answers
 * one), with a transcript like any other; only the store tells it apart, so its engine task never depends
 * on an empty model path.
 */
import type { SttOptions, SttResult } from '../../contract/types';
import type { ScriptFormat } from '../../subtitles/script';
import { nameFromFile } from '../job-name';
import { isCount, isObject, isSafeFileName, isString, withCheckedSttOptions } from './checks';
import { isKind, type JobKindModule, type NewJob } from './job-kind';
import { TRANSCRIPT_FILE } from './stt';

/** The media of an alignment job and its script, in the job's folder, and the models found when the job was created. */
export interface AlignJobInput {
  kind: 'align';
  options: SttOptions;
  /** File name of the media inside the job folder. */
  inputFile: string;
  originalName: string;
  bytes: number;
  scriptFile: string;
  scriptFormat: ScriptFormat;
  /** The Silero VAD model; null: none was installed. */
  vadModelPath: string | null;
  /** The whisper model that refines the alignment, found when the job was created; absent or null: none. */
  recognizerModelPath?: string | null;
}

/** What a door knows of an alignment job once its media and script are in the job's folder. */
export type ReceivedAlignJob = Omit<AlignJobInput, 'kind'> & {
  /** The job's name; default: the media's file name. */
  name?: string;
};

/** An alignment whose media arrives first: `receive` puts media and script in the job's folder and admits the request. */
export interface NewAlignJob extends NewJob {
  receive(id: string, dir: string): Promise<ReceivedAlignJob>;
}

const isAlign = isKind('align');

export const alignKind: JobKindModule<'align', AlignJobInput, SttResult, NewAlignJob> = {
  kind: 'align',
  seedKind: 'stt',
  label: 'STT',
  noun: 'transcription',
  phrase: 'an alignment',
  openWith: 'editor',

  async input(job, folder) {
    const { name, ...received } = await job.receive(folder.id, folder.dir);
    return { input: { kind: 'align', ...received }, name: name ?? nameFromFile(received.originalName) };
  },

  task(job, paths) {
    const input = job.input;
    return {
      kind: 'align',
      inputPath: paths.file(job.id, input.inputFile),
      scriptPath: paths.file(job.id, input.scriptFile),
      scriptFormat: input.scriptFormat,
      workDir: paths.dir(job.id),
      options: input.options,
      vadModelPath: input.vadModelPath,
      ...(input.recognizerModelPath ? { recognizerModelPath: input.recognizerModelPath } : {}),
    };
  },

  outputFile: () => TRANSCRIPT_FILE,

  inputProblem(input) {
    if (!isObject(input.options)) return "input: does not match the job's kind";
    if (!(isSafeFileName(input.inputFile) && isSafeFileName(input.scriptFile)))
      return 'input.inputFile or input.scriptFile: is not a file name';
    if (!(isString(input.originalName) && isCount(input.bytes) && isString(input.scriptFormat)))
      return "input: lacks the media's name or size, or the script's format";
    if (!(input.vadModelPath === null || isString(input.vadModelPath))) return 'input.vadModelPath: is not a path';
    return undefined;
  },

  checkedInput: withCheckedSttOptions,

  resultOf(job) {
    return isAlign(job) ? job.result : null;
  },
};

/** How the previous version stored an alignment: an `stt` job with an empty model path and its script under `align`. */
interface LegacyAlignment {
  kind: 'stt';
  options: SttOptions;
  inputFile: string;
  originalName: string;
  bytes: number;
  align?: Omit<AlignJobInput, 'kind' | 'options' | 'inputFile' | 'originalName' | 'bytes'>;
}

/** An `stt` record the previous version wrote for an alignment, read as the `align` record it is; any other record as it is. */
export function upgradeLegacyAlignment<J extends { kind: string; input: unknown }>(
  record: J,
): J | (Omit<J, 'kind' | 'input'> & { kind: 'align'; input: AlignJobInput }) {
  if (record.kind !== 'stt' || !isObject(record.input) || !isObject(record.input.align)) return record;
  const { options, inputFile, originalName, bytes, align } = record.input as unknown as LegacyAlignment;
  return { ...record, kind: 'align', input: { kind: 'align', options, inputFile, originalName, bytes, ...align! } };
}
