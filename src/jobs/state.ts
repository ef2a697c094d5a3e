import { monotonicNow } from '../util/monotonic-clock';
import type { JobRecord, JobStatus } from './types';

/**
 * The only legal moves of a job (docs/decisions.md): queued → loading_model → processing → a terminal state;
 * any active state may be cancelled or fail; a running job becomes interrupted when its host stopped. What a
 * move implies (timestamps, progress 100, phase) is `transitionMarks`, shared by this machine's store and the
 * relay's rows (src/relay/dispatch/job-lifecycle.ts).
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
  constructor(
    readonly from: JobStatus,
    readonly to: JobStatus,
  ) {
    super(`A job cannot go from ${from} to ${to}.`);
    this.name = 'IllegalTransitionError';
  }
}

export const canTransition = (from: JobStatus, to: JobStatus): boolean => NEXT[from].includes(to);

/**
 * The shortest legal path from one status to another, through loading_model and processing where needed (a
 * device may report loading_model and processing at once); [] for no move, undefined when there is none.
 * @example legalPath('queued', 'processing') // ['loading_model', 'processing']
 */
export function legalPath(from: JobStatus, to: JobStatus): JobStatus[] | undefined {
  if (from === to) return [];
  if (canTransition(from, to)) return [to];
  for (const middle of ['loading_model', 'processing'] as const) {
    if (canTransition(from, middle)) {
      const rest = legalPath(middle, to);
      if (rest) return [middle, ...rest];
    }
  }
  return undefined;
}

/** What a move sets besides the status, whoever stores the job. */
export interface TransitionMarks {
  startedAt?: number;
  finishedAt?: number;
  progress?: number;
  phase?: string;
}

/**
 * What moving along `steps` (a legal path) implies: the start time and phase `loading_model` when it passes
 * loading_model, the finish time when it ends in a terminal state, and progress 100 with phase `done` on
 * success. A phase the caller reports wins, except over `done`.
 */
export function transitionMarks(
  steps: readonly JobStatus[],
  reportedPhase: string | undefined,
  now: number,
): TransitionMarks {
  const marks: TransitionMarks = reportedPhase === undefined ? {} : { phase: reportedPhase };
  if (steps.includes('loading_model')) {
    marks.startedAt = now;
    marks.phase = reportedPhase ?? 'loading_model';
  }
  const last = steps.at(-1);
  if (last !== undefined && NEXT[last].length === 0) {
    marks.finishedAt = now;
    if (last === 'succeeded') {
      marks.progress = 100;
      marks.phase = 'done';
    }
  }
  return marks;
}

export type TransitionDetails = Partial<Pick<JobRecord, 'result' | 'error' | 'backend' | 'outputFile' | 'phase'>>;

/**
 * The record after moving to `to`, with the timestamps, phase and progress that move implies. The times
 * never run backwards (a clock set back between two runs): a job starts no earlier than it was created and
 * finishes no earlier than it started.
 */
export function transition(
  job: JobRecord,
  to: JobStatus,
  details: TransitionDetails = {},
  now = monotonicNow(),
): JobRecord {
  if (!canTransition(job.status, to)) throw new IllegalTransitionError(job.status, to);
  const { phase, result, ...rest } = details;
  const marks = transitionMarks([to], phase ?? undefined, now);
  if (marks.startedAt !== undefined) marks.startedAt = Math.max(marks.startedAt, job.createdAt);
  if (marks.finishedAt !== undefined)
    marks.finishedAt = Math.max(marks.finishedAt, marks.startedAt ?? job.startedAt ?? job.createdAt);
  const moved: JobRecord = { ...job, ...rest, status: to, ...marks };
  // The engine answers the task the record's kind built (src/jobs/kinds/), so its result is of that kind.
  return result === undefined ? moved : ({ ...moved, result } as JobRecord);
}
