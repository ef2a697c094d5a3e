/** The one JSON body parser of the Local API and the relay: application/json, UTF-8, at most 2 MB, an object or array. */
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { invalidRequest } from '../contract/errors';

/** UTF-8 under the names clients use; JSON exchanged between systems is UTF-8 (RFC 8259, section 8.1). */
const UTF8_NAMES = new Set(['', 'utf-8', 'utf8']);

/**
 * Reads a JSON request body into `ctx.request.body`. A body declared in another charset is refused
 * (422) rather than read as if it were UTF-8, which would garble every non-ASCII character silently.
 */
export function jsonBody(limit = '2mb'): Middleware {
  const parse = koaBody({ json: true, multipart: false, urlencoded: false, text: false, jsonLimit: limit, jsonStrict: true });
  return async (ctx, next) => {
    if (!ctx.is('application/json')) throw invalidRequest('body: must be JSON sent with Content-Type: application/json');
    const charset = ctx.request.charset.toLowerCase();
    if (!UTF8_NAMES.has(charset)) {
      throw invalidRequest(`body: must be JSON in UTF-8, not charset ${charset.slice(0, 40)}; send Content-Type: application/json (or with charset=utf-8)`);
    }
    await parse(ctx, next);
  };
}
