import { checkJobResult } from '../../contract/result-check';
import type { JobResult } from '../../contract/types';
import { legalPath, transitionMarks } from '../../jobs/state';
import { isActive, type JobStatus } from '../../jobs/types';
import { describeThrown, type Logger } from '../../util/log';
import { adjustCreditsMilli, adjustStorage } from '../data/accounts';
import { lockJob, saveJobState, type JobRow } from '../data/jobs';
import { CHANNELS, notify, type Database, type Queryable } from '../db/database';
import type { BlobStore } from '../storage/blob-store';
import { settledMilli } from './credits';

/**
 * A success as reported, when its output is stored and its result has the contract's shape (foreign members
 * dropped); otherwise the failure a caller can act on: the relay never serves a success it cannot back.
 */
function provenSuccess(job: JobRow, change: JobChange): JobChange {
  const failed = (why: string): JobChange => ({
    ...change,
    status: 'failed',
    result: null,
    error: `The device reported success, but ${why}; run the job again.`,
  });
  if (!job.output_blob) return failed('its output never reached the relay');
  const checked = checkJobResult(job.kind, change.result ?? job.result);
  if (!checked.ok) return failed(`its result is not one the API can serve (${checked.message})`);
  return { ...change, result: checked.value };
}

export interface JobChange {
  status?: JobStatus;
  progress?: number;
  phase?: string | null;
  backend?: string | null;
  result?: JobResult | null;
  error?: string | null;
}

/**
 * Every change of a relay job goes through here, under the row's lock: legal moves only, progress that
 * never goes back, timestamps, and at the end the credits settled and the input removed.
 */
export class JobLifecycle {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly log: Logger,
  ) {}

  /** Applies `change` unless the job has ended or belongs to another device; returns the new row or undefined. */
  async update(id: string, change: JobChange, only: { deviceId?: string } = {}): Promise<JobRow | undefined> {
    const removed: string[] = [];
    const row = await this.db.transaction((tx) => this.updateIn(tx, id, change, only, removed));
    for (const key of removed)
      await this.blobs.delete(key).catch((e) => this.log.warn(`Could not remove ${key}: ${describeThrown(e)}`));
    return row;
  }

  async updateIn(
    tx: Queryable,
    id: string,
    reported: JobChange,
    only: { deviceId?: string },
    removed: string[],
  ): Promise<JobRow | undefined> {
    const job = await lockJob(tx, id);
    if (!job || !isActive(job.status)) return undefined;
    if (only.deviceId !== undefined && job.device_id !== only.deviceId) return undefined;
    const change = reported.status === 'succeeded' ? provenSuccess(job, reported) : reported;
    const now = Date.now();
    const to = change.status ?? job.status;
    const steps = legalPath(job.status, to);
    if (!steps) return undefined;
    const next: JobRow = { ...job, status: to };
    if (change.phase !== undefined) next.phase = change.phase;
    if (change.backend !== undefined) next.backend = change.backend;
    if (change.progress !== undefined && Number.isFinite(change.progress))
      next.progress = Math.max(job.progress, Math.min(99.9, change.progress));
    if (change.error !== undefined) next.error = change.error;
    // What the move implies, as for a job of this machine's own store (src/jobs/state.ts).
    const marks = transitionMarks(steps, change.phase ?? undefined, now);
    if (marks.startedAt !== undefined) next.started_at = marks.startedAt;
    if (marks.finishedAt !== undefined) next.finished_at = marks.finishedAt;
    if (marks.progress !== undefined) next.progress = marks.progress;
    if (marks.phase !== undefined) next.phase = marks.phase;
    if (!isActive(to)) {
      if (to === 'succeeded') {
        next.result = change.result ?? null;
        next.error = null;
      }
      next.credits_charged_milli = settledMilli(next);
      await adjustCreditsMilli(tx, job.account_id, job.credits_reserved_milli - next.credits_charged_milli);
      if (job.input_blob) {
        removed.push(job.input_blob);
        await adjustStorage(tx, job.account_id, -job.input_bytes);
        next.input_blob = null;
      }
      if (to === 'cancelled' && job.device_id) await notify(tx, CHANNELS.cancel, `${job.device_id} ${job.id}`);
    }
    return saveJobState(tx, next);
  }
}
