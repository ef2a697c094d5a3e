import Router from '@koa/router';
import type { AppDeps } from '../jobs/app-deps';
import { invalidRequest } from '../contract/errors';

export function voiceRoutes(router: Router, deps: AppDeps): void {
  router.get('/voices', (ctx) => {
    const query = deps.validators.voiceQuery(ctx.query);
    if (!query.ok) throw invalidRequest(query.message);
    ctx.body = deps.voices.list(query.value);
  });
}
