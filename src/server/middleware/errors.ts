import type { Middleware } from 'koa';
import { describeThrown, type Logger } from '../../util/log';
import { ApiError } from '../errors';

/** The one place where failures become the spec's error body; anything unexpected is logged in full. */
export function errorMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === '') {
        if (ctx.status === 404) throw new ApiError('NOT_FOUND', `There is no ${ctx.method} ${ctx.path.slice(0, 200)} in the Local API.`);
        if (ctx.status === 405 || ctx.status === 501) {
          throw new ApiError('METHOD_NOT_ALLOWED', `${ctx.path.slice(0, 200)} does not accept ${ctx.method.slice(0, 20)}; allowed: ${ctx.response.get('Allow')}.`);
        }
      }
    } catch (thrown) {
      const error = toApiError(thrown, log, ctx.method, ctx.path);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = error.toBody();
      if (error.status >= 500 || error.code === 'FILE_TOO_LARGE') ctx.set('Connection', 'close');
    }
  };
}

function toApiError(thrown: unknown, log: Logger, method: string, path: string): ApiError {
  if (thrown instanceof ApiError) return thrown;
  const status = (thrown as { status?: unknown })?.status;
  // Errors from Koa's own body parsing (bad JSON, wrong charset, body too large) carry a 4xx status.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const reason = status === 413 ? 'body: is too large' : `body: ${describeThrown(thrown)}`;
    return new ApiError('INVALID_REQUEST', reason);
  }
  log.error(`Unexpected error in ${method} ${path}: ${thrown instanceof Error ? thrown.stack : describeThrown(thrown)}`);
  return new ApiError('INTERNAL_ERROR', `The server failed while handling ${method} ${path.slice(0, 200)}: ${describeThrown(thrown)}`);
}
