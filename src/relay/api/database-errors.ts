import type { Middleware } from 'koa';
import { ApiError } from '../../contract/errors';
import type { Logger } from '../../util/log';

/** SQLSTATEs of text the database cannot hold (NUL in text, `\u0000` in jsonb): the caller's input, not a fault. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** Errors from PostgreSQL (pg and PGlite alike) carry a five-character SQLSTATE and a severity. */
function sqlState(thrown: unknown): string | undefined {
  const { code, severity } = (thrown ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string' ? code : undefined;
}

/**
 * The last guard behind the checks at the relay's boundary: a database error never reaches a client with
 * the database's own words. Text the database cannot store is the request's fault (422); any other
 * database failure is logged in one line with its SQLSTATE and answered with a plain 500.
 */
export function databaseErrors(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const state = sqlState(thrown);
      if (state === undefined) throw thrown;
      if (UNSTORABLE_TEXT.has(state)) {
        throw new ApiError(
          'INVALID_REQUEST',
          'A field of the request holds a character the relay cannot store (such as NUL, U+0000).',
        );
      }
      log.error(`${ctx.method} ${ctx.path.slice(0, 200)}: database error ${state}: ${(thrown as Error).message}`);
      throw new ApiError(
        'INTERNAL_ERROR',
        'The relay could not complete the request because its database failed; try again later.',
      );
    }
  };
}
