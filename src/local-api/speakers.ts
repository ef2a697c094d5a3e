/** GET /speakers: the enrolled speakers (names, how much speech, when), read-only; enrolling is the CLI's. */
import type Router from '@koa/router';
import type { AppDeps } from '../jobs/app-deps';
import { listSpeakers } from '../jobs/speaker-enrollment';

export function speakerRoutes(router: Router, deps: AppDeps): void {
  router.get('/speakers', async (ctx) => {
    ctx.body = { speakers: await listSpeakers(deps.dataDir) };
  });
}
