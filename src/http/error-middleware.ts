import type { Middleware } from 'koa';
import { describeThrown, type Logger } from '../util/log';
import { ApiError, registryErrorOf } from '../contract/errors';
import { drainRequest } from './drain-request';
import { FRAMING_ALLOWANCE, MAX_UPLOAD_BYTES } from './upload/receive-upload';

/** How long an answer that closes the connection waits for the rest of the body it abandoned. */
const CLOSING_DRAIN_MS = 30_000;

/** The one place where failures become the spec's error body; anything unexpected is logged in full. */
export function errorMiddleware(log: Logger, apiName = 'Local API'): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === '') {
        if (ctx.status === 404)
          throw new ApiError('NOT_FOUND', `There is no ${ctx.method} ${ctx.path.slice(0, 200)} in the ${apiName}.`);
        if (ctx.status === 405 || ctx.status === 501) {
          throw new ApiError(
            'METHOD_NOT_ALLOWED',
            `${ctx.path.slice(0, 200)} does not accept ${ctx.method.slice(0, 20)}; allowed: ${ctx.response.get('Allow')}.`,
          );
        }
      }
    } catch (thrown) {
      const error = toApiError(thrown, log, ctx.method, ctx.path);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = error.toBody();
      if (error.status >= 500 || error.code === 'FILE_TOO_LARGE') ctx.set('Connection', 'close');
      // A failure inside the server (a full disk while an upload streams in) closes the connection after
      // its answer: take the rest of a body that may still fit the upload limit first, so the client has
      // sent everything and can read the answer. An oversized body is not waited for.
      if (error.status >= 500 && !ctx.req.complete)
        await drainRequest(ctx.req, { maxBytes: MAX_UPLOAD_BYTES + FRAMING_ALLOWANCE, maxMs: CLOSING_DRAIN_MS });
      // A body read part-way and then abandoned (a limit, a parse error) would leave the connection stalled
      // behind it: read the rest and drop it, as Node does for a body nobody started to read.
      if (!ctx.req.complete) {
        ctx.req.unpipe();
        ctx.req.resume();
      }
    }
  };
}

function toApiError(thrown: unknown, log: Logger, method: string, path: string): ApiError {
  const registered = registryErrorOf(thrown);
  if (registered) {
    if (!(thrown instanceof ApiError))
      log.error(`${method} ${path} failed: ${registered.message} (${describeThrown(thrown)})`);
    return registered;
  }
  const status = (thrown as { status?: unknown })?.status;
  // Errors from Koa's own body parsing (bad JSON, wrong charset, body too large) carry a 4xx status.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const reason = status === 413 ? 'body: is too large' : `body: ${describeThrown(thrown)}`;
    return new ApiError('INVALID_REQUEST', reason);
  }
  // zlib and brotli errors come from decoding a body sent with Content-Encoding gzip, deflate or br.
  const code = (thrown as { code?: unknown })?.code;
  if (typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'))) {
    return new ApiError(
      'INVALID_REQUEST',
      `body: is not valid data for its Content-Encoding (${describeThrown(thrown)})`,
    );
  }
  log.error(
    `Unexpected error in ${method} ${path}: ${thrown instanceof Error ? thrown.stack : describeThrown(thrown)}`,
  );
  return new ApiError(
    'INTERNAL_ERROR',
    `The server failed while handling ${method} ${path.slice(0, 200)}: ${describeThrown(thrown)}`,
  );
}
