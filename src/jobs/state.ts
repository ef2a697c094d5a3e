import type { JobRecord, JobStatus } from './types';

/**
 * The only legal moves of a job (docs/decisions.md): queued → loading_model → processing → a terminal state;
 * any active state may be cancelled or fail; a running job becomes interrupted when its host stopped.
 */
const NEXT: Record<JobStatus, readonly JobStatus[]> = {
  queued: ['loading_model', 'cancelled', 'failed'],
  loading_model: ['processing', 'cancelled', 'failed', 'interrupted'],
  processing: ['succeeded', 'cancelled', 'failed', 'interrupted'],
  succeeded: [],
  failed: [],
  cancelled: [],
  interrupted: [],
};

export class IllegalTransitionError extends Error {
  constructor(readonly from: JobStatus, readonly to: JobStatus) {
    super(`A job cannot go from ${from} to ${to}.`);
    this.name = 'IllegalTransitionError';
  }
}

export const canTransition = (from: JobStatus, to: JobStatus): boolean => NEXT[from].includes(to);

export type TransitionDetails = Partial<Pick<JobRecord, 'result' | 'error' | 'backend' | 'outputFile' | 'phase'>>;

/** The record after moving to `to`, with the timestamps, phase and progress that move implies. */
export function transition(job: JobRecord, to: JobStatus, details: TransitionDetails = {}, now = Date.now()): JobRecord {
  if (!canTransition(job.status, to)) throw new IllegalTransitionError(job.status, to);
  const next: JobRecord = { ...job, ...details, status: to };
  if (to === 'loading_model') {
    next.startedAt = now;
    next.phase = details.phase ?? 'loading_model';
  }
  if (NEXT[to].length === 0) {
    next.finishedAt = now;
    if (to === 'succeeded') {
      next.progress = 100;
      next.phase = 'done';
    } else {
      next.phase = details.phase ?? job.phase;
    }
  }
  return next;
}
