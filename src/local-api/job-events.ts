/**
 * GET /jobs/{id}/events: the job's live events as Server-Sent Events (see jobs/job-event-log.ts): `job`
 * with the Job object on every status or phase change and progress at most 4 times a second, `segment`
 * for each STT segment as it is recognized, the terminal `job` last, then the stream ends. Last-Event-ID
 * resumes; a finished job with nothing new answers 204, which tells EventSource to stop reconnecting.
 */
import type Router from '@koa/router';
import { jobEventLog, type JobEvent } from '../jobs/job-event-log';
import { isActive } from '../jobs/types';
import type { AppDeps } from '../jobs/app-deps';
import { openSse } from '../http/sse';
import { findApiJob } from '../jobs/job-lookup';

export function jobEventRoutes(router: Router, deps: AppDeps): void {
  const log = jobEventLog(deps.jobs);
  router.get('/jobs/:id/events', (ctx) => {
    const job = findApiJob(deps.jobs, ctx.params.id);
    const after = log.parseEventId(ctx.get('Last-Event-ID'));
    const backlog = log.replay(job.id, after);
    if (backlog.length === 0 && !isActive(job.status)) {
      ctx.status = 204;
      return;
    }
    const sse = openSse(ctx);
    const send = (event: JobEvent): void => {
      if (event.type === 'job') {
        sse.send({ id: event.id, event: 'job', data: event.job });
        if (!isActive(event.job.status)) {
          unsubscribe();
          sse.end();
        }
      } else {
        sse.send({ id: event.id, event: 'segment', data: event.segment });
      }
    };
    const unsubscribe = log.subscribe(job.id, send);
    sse.signal.addEventListener('abort', unsubscribe, { once: true });
    for (const event of backlog) send(event);
  });
}
