/** Waiting for a job to end, on the job service's own events (never by polling). */
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
