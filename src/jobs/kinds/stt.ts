/** The `stt` job kind: media in the job's folder recognized into a transcript beside it. */
import type { SttOptions, SttResult } from '../../contract/types';
import type { WhisperHints } from '../../engine-api/protocol';
import { sttModelKindOf } from '../../models/stt-model-kind';
import { nameFromFile } from '../job-name';
import { isCount, isObject, isSafeFileName, isString, withCheckedSttOptions } from './checks';
import { isKind, type JobKindModule, type NewJob } from './job-kind';

export const TRANSCRIPT_FILE = 'transcript.json';

export interface SttJobInput {
  kind: 'stt';
  options: SttOptions;
  /** File name of the upload inside the job folder. */
  inputFile: string;
  originalName: string;
  bytes: number;
  modelPath: string;
  /** `parakeet` when Parakeet transcribes, read from the model when the job was created; absent: whisper.cpp. */
  recognizer?: 'parakeet';
  /** Decoding hints beyond the contract's options (the OpenAI door's prompt, translate, temperature). */
  whisper?: WhisperHints;
}

/** What a door knows of an STT job once its media is in the job's folder. */
export interface ReceivedSttJob {
  options: SttOptions;
  inputFile: string;
  originalName: string;
  bytes: number;
  modelPath: string;
  /** A remote job's caller: the relay key's name. */
  remoteKeyName?: string;
  /** The job's name; default: the upload's file name. */
  name?: string;
  whisper?: WhisperHints;
}

/** An STT job whose media arrives first (an upload, a copy, a download): `receive` puts it in the job's folder and admits the request. */
export interface NewSttJob extends NewJob {
  receive(id: string, dir: string): Promise<ReceivedSttJob>;
}

const isStt = isKind('stt');

export const sttKind: JobKindModule<'stt', SttJobInput, SttResult, NewSttJob> = {
  kind: 'stt',
  seedKind: 'stt',
  label: 'STT',
  noun: 'transcription',
  phrase: 'a transcription',
  openWith: 'editor',

  async input(job, folder) {
    const { options, inputFile, originalName, bytes, modelPath, whisper, name, remoteKeyName } = await job.receive(
      folder.id,
      folder.dir,
    );
    // Known now, while the model file is read without blocking, so the job's backend never needs a file read.
    const recognizer = (await sttModelKindOf(modelPath)) === 'parakeet' ? { recognizer: 'parakeet' as const } : {};
    return {
      input: {
        kind: 'stt',
        options,
        inputFile,
        originalName,
        bytes,
        modelPath,
        ...recognizer,
        ...(whisper ? { whisper } : {}),
      },
      name: name ?? nameFromFile(originalName),
      ...(remoteKeyName === undefined ? {} : { remoteKeyName }),
    };
  },

  task(job, paths) {
    const input = job.input;
    return {
      kind: 'stt',
      inputPath: paths.file(job.id, input.inputFile),
      workDir: paths.dir(job.id),
      modelPath: input.modelPath,
      ...(input.recognizer ? { recognizer: input.recognizer } : {}),
      options: input.options,
      ...(input.whisper ? { whisper: input.whisper } : {}),
    };
  },

  outputFile: () => TRANSCRIPT_FILE,

  inputProblem(input) {
    if (!isObject(input.options)) return "input: does not match the job's kind";
    if (!isSafeFileName(input.inputFile)) return 'input.inputFile: is not a file name';
    if (!(isString(input.originalName) && isString(input.modelPath) && isCount(input.bytes)))
      return "input: lacks the upload's name, size or model";
    return undefined;
  },

  checkedInput: withCheckedSttOptions,

  resultOf(job) {
    return isStt(job) ? job.result : null;
  },
};
