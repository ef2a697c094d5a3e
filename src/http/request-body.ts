import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { parse as parseQuery } from 'node:querystring';
import type { Middleware } from 'koa';
import { ApiError, invalidRequest } from '../contract/errors';

/**
 * JSON and form bodies for the Local API and the relay, read as text with `Content-Encoding` gzip, deflate
 * or br decoded and a limit on the decoded size. The reader owns its decoder to the end: koa-body's reader
 * stopped listening to the decoder at its limit but left it running on the bytes it held, so a compressed
 * body damaged just past the limit made the decoder fail with no listener, an uncaught error that ended the
 * server (before any key was checked, on the relay's sign-in form).
 */

declare module 'koa' {
  interface Request {
    /** The parsed body, once jsonBody or formBody ran; routes validate it before use. */
    body?: unknown;
  }
}

function decoderFor(req: IncomingMessage): (Readable & NodeJS.WritableStream) | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return undefined;
  // Unzip reads both the gzip and the zlib wrapper, as clients mean either by these names.
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') return zlib.createUnzip();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  throw invalidRequest(
    `body: Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported; send gzip, deflate, br or none`,
  );
}

const tooLarge = (limitBytes: number): ApiError =>
  invalidRequest(`body: is too large (more than ${limitBytes} bytes once decoded)`);

/**
 * The body as UTF-8 text (a leading byte-order mark dropped). Throws INVALID_REQUEST past `limitBytes` of
 * decoded bytes or on bytes that are not what their Content-Encoding says; what the client still sends
 * after that is left for the error middleware to drain.
 */
export async function readBodyText(req: IncomingMessage, limitBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  const decoder = decoderFor(req);
  if (!decoder && declared > limitBytes) throw tooLarge(limitBytes);
  const source: Readable = decoder ?? req;
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      source.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > limitBytes) reject(tooLarge(limitBytes));
        else chunks.push(chunk);
      });
      source.once('end', resolve);
      source.on('error', (error: Error) =>
        reject(
          decoder
            ? invalidRequest(`body: is not valid data for its Content-Encoding (${error.message})`)
            : invalidRequest(`body: could not be read (${error.message})`),
        ),
      );
      req.once('aborted', () => reject(invalidRequest('body: the client stopped sending before the body ended')));
      if (decoder) req.pipe(decoder);
    });
  } finally {
    if (decoder) {
      req.unpipe(decoder);
      // Destroyed with its error listener still attached: nothing it held can fail unheard.
      decoder.destroy();
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `__proto__` as a key is refused rather than kept as data that a later merge could turn into a prototype. */
const refuseProtoKeys = (key: string, value: unknown): unknown => {
  if (key === '__proto__') throw new SyntaxError('"__proto__" is not allowed as a key');
  return value;
};

/** UTF-8 under the names clients use; JSON exchanged between systems is UTF-8 (RFC 8259, section 8.1). */
const UTF8_NAMES = new Set(['', 'utf-8', 'utf8']);

/** The JSON bodies of the Local API and the relay: at most 2 MB once decoded. */
export const JSON_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * The one JSON body parser of the Local API and the relay: `application/json` in UTF-8, an object or array,
 * into `ctx.request.body`; the route's validator checks its shape. A body declared in another charset is
 * refused (422) rather than read as if it were UTF-8, which would garble every non-ASCII character silently.
 */
export function jsonBody(limitBytes = JSON_BODY_LIMIT_BYTES): Middleware {
  return async (ctx, next) => {
    if (!ctx.is('application/json'))
      throw invalidRequest('body: must be JSON sent with Content-Type: application/json');
    const charset = ctx.request.charset.toLowerCase();
    if (!UTF8_NAMES.has(charset)) {
      throw invalidRequest(
        `body: must be JSON in UTF-8, not charset ${charset.slice(0, 40)}; send Content-Type: application/json (or with charset=utf-8)`,
      );
    }
    const text = await readBodyText(ctx.req, limitBytes);
    // eslint-disable-next-line no-control-regex -- JSON's whitespace: space, tab, line feed, carriage return
    if (!/^[\x20\x09\x0a\x0d]*[[{]/.test(text)) throw invalidRequest('body: must be a JSON object');
    try {
      ctx.request.body = JSON.parse(text, refuseProtoKeys);
    } catch (error) {
      throw invalidRequest(`body: is not valid JSON (${(error as Error).message.slice(0, 200)})`);
    }
    await next();
  };
}

/** Parses an `application/x-www-form-urlencoded` body into `ctx.request.body` (repeated names become arrays). */
export function formBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    ctx.request.body = ctx.is('application/x-www-form-urlencoded')
      ? parseQuery(await readBodyText(ctx.req, limitBytes))
      : {};
    await next();
  };
}
