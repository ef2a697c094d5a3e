import Router from '@koa/router';
import Koa from 'koa';
import type { IncomingMessage } from 'node:http';
import { errorMiddleware } from '../../http/error-middleware';
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

/** Reads and drops the rest of a request body; false when it is longer than `maxBytes` or slower than `ms`. */
function drainRequest(req: IncomingMessage, maxBytes: number, ms: number): Promise<boolean> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const done = (drained: boolean) => {
      clearTimeout(timer);
      req.off('data', onData);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done(false);
    };
    const timer = setTimeout(() => done(false), ms);
    req.on('data', onData);
    req.once('end', () => done(true));
    req.once('error', () => done(false));
    req.once('close', () => done(req.complete));
    req.resume();
  });
}

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
    if (!ctx.req.complete) await drainRequest(ctx.req, DRAIN_LIMIT_BYTES, DRAIN_LIMIT_MS);
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
