import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from '../jobs/app-deps';
import { errorMiddleware } from '../http/error-middleware';
import { bearerAuth, checkHost, rejectBrowserOrigins, requireEnabled, requireFeature } from '../http/security';
import { openAiErrorShape } from '../openai/errors';
import { openAiRoutes } from '../openai/routes';
import { jobEventRoutes } from '../local-api/job-events';
import { jobRoutes } from '../local-api/jobs';
import { mcpRoutes } from '../mcp/http';
import { lexiconRoutes } from '../local-api/lexicon';
import { serviceRoutes } from '../local-api/service';
import { speakerRoutes } from '../local-api/speakers';
import { realtimePlainRoutes } from '../realtime/plain-request';
import { sttRoutes } from '../local-api/stt';
import { alignRoutes } from '../local-api/align';
import { ttsRoutes } from '../local-api/tts';
import { voiceRoutes } from '../local-api/voices';

export const API_PREFIX = '/v1';

/** Builds the Local API as a Koa app. It does not listen: `listen` is the caller's (see local-server.ts). */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;

  const router = new Router({ prefix: API_PREFIX });
  serviceRoutes(router, deps);
  voiceRoutes(router, deps);
  ttsRoutes(router, deps);
  sttRoutes(router, deps);
  alignRoutes(router, deps);
  jobRoutes(router, deps);
  jobEventRoutes(router, deps);
  openAiRoutes(router, deps);
  mcpRoutes(router, deps);
  lexiconRoutes(router, deps);
  speakerRoutes(router, deps);
  realtimePlainRoutes(router);

  app.use(openAiErrorShape);
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    ctx.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    await next();
  });
  app.use(rejectBrowserOrigins);
  app.use(checkHost(() => deps.boundHost()));
  app.use(requireEnabled(() => deps.isEnabled()));
  app.use(bearerAuth(() => deps.authEnabled(), deps.apiKeys));
  app.use(requireFeature(deps.entitlements, 'app_connection'));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
