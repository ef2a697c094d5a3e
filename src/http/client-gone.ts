/** A request whose answer waits for a job: the client going away before the answer ends cancels the job. */
import type { Context } from 'koa';

/** What this needs of the job core (its JobService): cancelling a job that has not ended, a no-op otherwise. */
export interface CancelsJobs {
  cancelIfActive(id: string): unknown;
}

/**
 * Cancels job `id` (if it is still queued or running) when the client closes the connection before the
 * response has been written in full; the returned signal aborts at that moment, for whoever streams.
 */
export function cancelJobWhenClientLeaves(ctx: Context, jobs: CancelsJobs, id: string): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (ctx.res.writableFinished) return;
    controller.abort();
    jobs.cancelIfActive(id);
  });
  return controller.signal;
}
