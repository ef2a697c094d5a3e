import Router from '@koa/router';
import Koa from 'koa';
import { drainRequest } from '../../http/drain-request';
import { errorMiddleware } from '../../http/error-middleware';
import { declaredLength } from '../../http/upload/upload-precheck';
import { portalRouter } from '../portal/routes';
import { allowedHostsOnly } from '../allowed-hosts';
import { databaseErrors } from './database-errors';
import { storageErrors } from './storage-errors';
import type { RelayDeps, RelayState } from './deps';
import { apiKeyAuth, rateLimit } from './key-auth';
import { deviceFileRoutes } from './routes/device-files';
import { jobRoutes } from './routes/jobs';
import { metricsRoutes } from './routes/metrics';
import { poolRoutes, publicRoutes } from './routes/service';
import { sttRoutes } from './routes/stt';
import { ttsRoutes } from './routes/tts';

export const RELAY_PREFIX = '/v1';
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 30_000;

/**
 * Builds the relay as a Koa app: the Remote API under /v1 (key, rate limit, then the route's scope), the
 * device file transfers under /v1/device, the portal under /portal, and /metrics when it has a token. It
 * does not listen.
 */
export function createRelayApp(deps: RelayDeps): Koa {
  const app = new Koa();
  app.proxy = deps.trustProxy;
  app.silent = true;

  const open = new Router<RelayState>({ prefix: RELAY_PREFIX });
  publicRoutes(open);
  deviceFileRoutes(open, deps);

  const keyed = new Router<RelayState>({ prefix: RELAY_PREFIX });
  keyed.use(apiKeyAuth(deps), rateLimit(deps));
  poolRoutes(keyed, deps);
  ttsRoutes(keyed, deps);
  sttRoutes(keyed, deps);
  jobRoutes(keyed, deps);

  const portal = portalRouter(deps);
  const operations = new Router<RelayState>();
  metricsRoutes(operations, deps);

  app.use(async (ctx, next) => {
    await next();
    // Refused before its body was read (401, 403, 429 on an upload): read and drop the rest before answering,
    // so the client gets the answer rather than a connection reset by unread bytes. Past a bound, just close.
    if (ctx.req.complete || (declaredLength(ctx) ?? 0) > DRAIN_LIMIT_BYTES) return;
    await drainRequest(ctx.req, { maxBytes: DRAIN_LIMIT_BYTES, maxMs: DRAIN_LIMIT_MS });
  });
  app.use(errorMiddleware(deps.log, 'Remote API'));
  app.use(allowedHostsOnly(deps.allowedHosts));
  app.use(databaseErrors(deps.log));
  app.use(storageErrors(deps.log));
  app.use(async (ctx, next) => {
    ctx.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    await next();
  });
  app.use(open.routes());
  app.use(keyed.routes());
  app.use(portal.routes());
  app.use(operations.routes());
  app.use(open.allowedMethods());
  app.use(keyed.allowedMethods());
  app.use(portal.allowedMethods());
  return app;
}
