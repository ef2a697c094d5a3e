/** Waiting for a job to end, on the job service's own events (never by polling). */
import { rm } from 'node:fs/promises';
import type { JobService } from './job-service';
import { isActive, type JobRecord } from './types';

/** Resolves with the job once it is terminal; rejects when `signal` aborts first. */
export function waitForJobEnd(jobs: JobService, id: string, signal?: AbortSignal): Promise<JobRecord> {
  return new Promise((resolve, reject) => {
    const current = jobs.get(id);
    if (!current) {
      reject(new Error(`Job ${id} is not in the store.`));
      return;
    }
    if (!isActive(current.status)) {
      resolve(current);
      return;
    }
    const stop = (): void => {
      jobs.off('change', onChange);
      signal?.removeEventListener('abort', onAbort);
    };
    const onChange = (job: JobRecord): void => {
      if (job.id !== id || isActive(job.status)) return;
      stop();
      resolve(job);
    };
    const onAbort = (): void => {
      stop();
      reject(signal?.reason ?? new Error('Stopped waiting for the job.'));
    };
    jobs.on('change', onChange);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits for a job that writes `<out>.partial` (a book, a translation) to end, cancelling it when `signal`
 * aborts; whatever did not succeed, the partial file or folder is removed, as the engine that was writing it
 * may have been ended mid-write.
 */
export async function finishPartialOutputJob(
  jobs: JobService,
  job: JobRecord,
  out: () => string | undefined,
  signal?: AbortSignal,
): Promise<JobRecord> {
  const cancel = (): void => void jobs.cancel(job.id).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  if (signal?.aborted) cancel();
  let ended: JobRecord;
  try {
    ended = await waitForJobEnd(jobs, job.id);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  const partialOf = ended.status === 'succeeded' ? undefined : out();
  if (partialOf) await rm(`${partialOf}.partial`, { recursive: true, force: true });
  return ended;
}
