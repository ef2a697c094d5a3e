/**
 * An alignment job for callers inside this process (the editor, the CLI): the media copied into a new job's
 * folder, the script admitted as the API admits it, the job queued like any other and awaited, its transcript read.
 */
import { copyFile, stat, writeFile } from 'node:fs/promises';
import { readJobTranscript } from './job-transcript';
import path from 'node:path';
import { storedInputName } from '../contract/media-types';
import { requireRegularFile } from '../local-files/user-files';
import type { SttResult } from '../contract/types';
import { compileValidators, type Validators } from '../contract/validation';
import type { Transcript } from '../subtitles/types';
import { admitAlignment, alignRecognizerModel } from './align-admission';
import type { JobService } from './job-service';
import { alignKind } from './kinds/align';
import type { JobOrigin, JobRecord } from './types';
import { finishPartialOutputJob, waitForJobEnd } from './wait-for-job';

let validators: Validators | undefined;

export interface AlignRequest {
  origin: JobOrigin;
  media: string;
  /** The script's file name (its extension says the format) and its text. */
  scriptName: string;
  script: string;
  language?: string;
  vadModelPath: string | null;
  /** The settings' STT model, preferred for refining the alignment when it serves the language. */
  preferredSttModel?: string;
  signal?: AbortSignal;
  onJob?(id: string): void;
}

export interface AlignOutcome {
  transcript: Transcript;
  result: SttResult;
}

/** Queues the alignment job: the media copied into the job's folder, the script admitted beside it. */
export async function createAlignJob(
  jobs: JobService,
  request: Omit<AlignRequest, 'signal' | 'onJob'>,
): Promise<JobRecord> {
  validators ??= compileValidators();
  await requireRegularFile(request.media, 'media file');
  return jobs.createAlignJobWith(request.origin, async (_id, dir) => {
    const admitted = admitAlignment(validators!, request.language ? { language: request.language } : {}, {
      originalName: request.scriptName,
      content: Buffer.from(request.script, 'utf8'),
    });
    const inputFile = storedInputName(request.media);
    await copyFile(request.media, path.join(dir, inputFile));
    const scriptFile = `script.${admitted.scriptFormat}`;
    await writeFile(path.join(dir, scriptFile), admitted.script, 'utf8');
    const recognizerModelPath = await alignRecognizerModel(
      jobs.dataDir,
      admitted.options.language,
      request.preferredSttModel,
    );
    return {
      options: admitted.options,
      inputFile,
      originalName: path.basename(request.media),
      bytes: (await stat(request.media)).size,
      scriptFile,
      scriptFormat: admitted.scriptFormat,
      vadModelPath: request.vadModelPath,
      recognizerModelPath,
    };
  });
}

/** Waits for an alignment job, cancelling it when `signal` aborts; the transcript when it succeeded, else null. */
export async function finishAlignJob(
  jobs: JobService,
  job: JobRecord,
  signal?: AbortSignal,
): Promise<{ job: JobRecord; result: AlignOutcome | null }> {
  const ended = await finishPartialOutputJob(jobs, job, () => undefined, signal);
  const result = alignKind.resultOf(ended);
  if (ended.status !== 'succeeded' || !ended.outputFile || !result) return { job: ended, result: null };
  return { job: ended, result: { transcript: await readJobTranscript(jobs.files, ended), result } };
}

/** Runs the alignment as a job; throws the job's error when it fails, an AbortError when cancelled. */
export async function alignAsJob(jobs: JobService, request: AlignRequest): Promise<AlignOutcome> {
  const created = await createAlignJob(jobs, request);
  request.onJob?.(created.id);
  const cancel = (): void => void jobs.cancel(created.id).catch(() => undefined);
  request.signal?.addEventListener('abort', cancel);
  try {
    const job = await waitForJobEnd(jobs, created.id, request.signal);
    const result = alignKind.resultOf(job);
    if (job.status !== 'succeeded' || !job.outputFile || !result)
      throw new Error(job.error ?? `The alignment job ended ${job.status}.`);
    const transcript = await readJobTranscript(jobs.files, job);
    return { transcript, result };
  } finally {
    request.signal?.removeEventListener('abort', cancel);
  }
}
