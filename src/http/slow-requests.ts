import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How long the server waits on a client. Slowloris attacks hold connections open by sending headers or a
 * body a few bytes at a time: the headers must all arrive within `headersMs`, and a body must bring at
 * least `bodyMinBytes` in every `bodyWindowMs` (16 KB per 30 s by default: any real link, even a 512 MB
 * upload on a slow LAN, does far better).
 */
export interface RequestTimeouts {
  headersMs: number;
  bodyWindowMs: number;
  bodyMinBytes: number;
  /** A connection with no traffic at all for this long is closed. */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: RequestTimeouts = {
  headersMs: 15_000,
  bodyWindowMs: 30_000,
  bodyMinBytes: 16 * 1024,
  idleMs: 60_000,
};

export function resolveTimeouts(given: Partial<RequestTimeouts> = {}): RequestTimeouts {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...given };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isFinite(value) || value <= 0)
      throw new TypeError(`Expected timeouts.${name} to be a positive number, got ${value}`);
  }
  return timeouts;
}

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

const SLOW_BODY = JSON.stringify({
  error: { code: 'INVALID_REQUEST', message: 'body: arrived too slowly; the server closed the request.' },
});

/**
 * Watches the bytes a request body brings (on the socket, so the body stream is left alone) and cuts the
 * request when a window passes with too few: 408 with the error body if no answer was sent yet, then the
 * request is destroyed, so Koa's handler sees it fail and cleans up (partial uploads, queue places).
 */
export function watchBodyRate(req: IncomingMessage, res: ServerResponse, timeouts: RequestTimeouts): void {
  if (!hasBody(req)) return;
  const socket = req.socket;
  let mark = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) {
      clearInterval(timer);
      return;
    }
    const arrived = socket.bytesRead - mark;
    mark = socket.bytesRead;
    if (arrived >= timeouts.bodyMinBytes) return;
    clearInterval(timer);
    // Destroying the request tells whoever reads the body (busboy, the JSON parser) that it failed, so
    // the handler cleans up; once the answer is out, since after it the socket no longer aborts the request.
    const cut = (): void => void req.destroy(new Error('The request body arrived too slowly.'));
    if (res.headersSent) {
      cut();
      return;
    }
    res.writeHead(408, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(SLOW_BODY),
      Connection: 'close',
    });
    res.end(SLOW_BODY, cut);
    // A client that does not read its answer must not keep the request alive either.
    setTimeout(cut, timeouts.bodyWindowMs).unref();
  }, timeouts.bodyWindowMs);
  timer.unref();
  req.once('close', () => clearInterval(timer));
}
