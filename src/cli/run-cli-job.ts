/**
 * One job of the job core run from the command line (an audiobook export, a translation): opens the core on
 * the data directory, prints the job's progress, cancels it on Ctrl+C or SIGTERM (exit code 130 or 143) and
 * removes it from the run's store when it ends. The caller creates the job, waits for it, and prints its result.
 */
import type { EngineConfig } from '../engine-api/engine-config';
import type { CliJobCore } from '../host/cli-job-core';
import type { JobService } from '../jobs/job-service';
import type { JobRecord } from '../jobs/types';
import type { VerifyTestHooks } from '../jobs/verify-admission';
import { consoleLogger } from '../util/log';
import { CancelSignals, CliCancelled } from './cancel-signals';

/** A progress line at most every this many percent. */
const PROGRESS_STEP = 10;

export interface CliJobRun<R> {
  /** `signal` aborts on Ctrl+C or SIGTERM, for work done before the job exists (casting a book). */
  create(core: CliJobCore, signal: AbortSignal): Promise<JobRecord>;
  finish(jobs: JobService, job: JobRecord, signal: AbortSignal): Promise<{ job: JobRecord; result: R | null }>;
  /** Printed on stderr when the job was cancelled, e.g. "Cancelled; no book was written." */
  cancelled: string;
  /** What the job is called in a failure without its own error, e.g. "export". */
  noun: string;
}

/** Where a job command runs, as the entry (src/cli.ts) resolved it: the data directory, the engine configuration, the test hooks. */
export interface CliJobPlace {
  dataDir: string;
  engineConfig: EngineConfig;
  testHooks?: VerifyTestHooks;
}

/** The job's result, or CliCancelled with the exit code of the signal that cancelled it; throws the job's error when it failed. */
export async function runCliJob<R>(place: CliJobPlace, run: CliJobRun<R>): Promise<R | CliCancelled> {
  // Loaded here so the other commands do not load the job core.
  const { openCliJobCore } = await import('../host/cli-job-core');
  // Log lines go to stderr: stdout carries the command's own lines.
  const log = { ...consoleLogger, info: (message: string) => console.error(message) };
  const core = await openCliJobCore({ ...place, log });
  const cancel = new CancelSignals();
  const cancelled = (): CliCancelled => {
    console.error(run.cancelled);
    return new CliCancelled(cancel.exitCode);
  };
  try {
    let job: JobRecord;
    try {
      job = await run.create(core, cancel.signal);
    } catch (error) {
      if (cancel.signal.aborted) return cancelled();
      throw error;
    }
    let shown = -PROGRESS_STEP;
    core.jobs.on('change', (changed: JobRecord) => {
      if (changed.id !== job.id || changed.progress < shown + PROGRESS_STEP || changed.progress >= 100) return;
      shown = Math.floor(changed.progress);
      console.log(`${job.name}: ${shown}%${changed.phase ? ` (${changed.phase})` : ''}`);
    });
    const { job: ended, result } = await run.finish(core.jobs, job, cancel.signal);
    await core.jobs.delete(job.id);
    if (ended.status === 'cancelled') return cancelled();
    if (!result) throw new Error(ended.error ?? `The ${run.noun} ended ${ended.status}.`);
    return result;
  } finally {
    cancel.dispose();
    await core.close();
  }
}
