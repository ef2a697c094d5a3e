/**
 * The one HTTP listener of the Local API and the relay: header and slow-client limits, a JSON error body
 * for whatever Node refuses before the app sees it, listening, and a graceful close.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { rawErrorResponse, writeErrorResponse } from './raw-error';
import { resolveTimeouts, watchBodyRate, type RequestTimeouts } from './slow-requests';
import { closeIdleSocket } from './idle-close';

export const MAX_HEADER_BYTES = 16 * 1024;

export interface HttpServerOptions {
  /** The app (a Koa app's callback, whose promise never rejects: Koa answers an error itself, with ctx.onerror). */
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;
  /** Slow-client limits (slowloris); defaults in DEFAULT_TIMEOUTS. */
  timeouts?: Partial<RequestTimeouts>;
  /** Refuse HTTP/1.1 requests without Host (400 with the error body); off: the app answers them. */
  requireHost?: boolean;
  /** The methods the app serves, for the Allow header of a refused CONNECT. */
  methods: readonly string[];
}

export interface HttpServer {
  readonly server: http.Server;
  /** Listens; resolves with the port (the real one when `port` is 0). */
  listen(port: number, host: string): Promise<number>;
  /**
   * Stops accepting and closes idle connections, waits for `drain` (the caller ends its work: jobs,
   * links), then closes every connection left. Calling it again returns the same promise.
   */
  close(drain?: () => Promise<void>): Promise<void>;
}

/** An HTTP server that is not listening yet (the relay attaches its WebSocket gateway first). */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const timeouts = resolveTimeouts(options.timeouts);
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node checks the headers deadline on this interval (30 s by default, which would double it).
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(timeouts.headersMs / 4))),
      // Node's own refusal of a request without Host has no body; the check below answers with one.
      requireHostHeader: false,
    },
    (req, res) => {
      if (options.requireHost && req.httpVersion === '1.1' && req.headers.host === undefined) {
        writeErrorResponse(res, 400, 'INVALID_REQUEST', 'The request has no Host header, which HTTP/1.1 requires.');
        return;
      }
      watchBodyRate(req, res, timeouts);
      void options.handle(req, res);
    },
  );
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = 0; // a 512 MB upload on a slow link may take long: the body rate is watched instead
  server.keepAliveTimeout = 5_000;
  // A client may close its sending half once its request is complete (`nc -N`, `curl --no-keepalive` over a
  // proxy, scripted probes) and still read the answer. Node's default aborts every request on that connection
  // at the half-close, so a route that answers asynchronously sent nothing at all, and of pipelined requests
  // only those already answered came back. Half-open, Node answers every complete request in order and then
  // closes; a body cut short by the half-close is still refused (400 through clientError below).
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.setTimeout(timeouts.idleMs, closeIdleSocket);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const response = error.code === 'HPE_HEADER_OVERFLOW'
      ? rawErrorResponse(431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', `The request headers are larger than ${MAX_HEADER_BYTES / 1024} KB.`)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? rawErrorResponse(408, 'Request Timeout', 'INVALID_REQUEST', 'The request was not received in time.')
        : error.code === 'HPE_INVALID_EOF_STATE'
          ? rawErrorResponse(400, 'Bad Request', 'INVALID_REQUEST', 'The client stopped sending before the request body was complete (shorter than its Content-Length).')
          : rawErrorResponse(400, 'Bad Request', 'INVALID_REQUEST', 'The request is not valid HTTP.');
    socket.end(response);
  });
  // Without a listener Node drops a CONNECT without a word: these servers are not proxies, so say so.
  server.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
    socket.end(rawErrorResponse(405, 'Method Not Allowed', 'METHOD_NOT_ALLOWED', 'CONNECT is not supported: this server is not a proxy.', { Allow: options.methods.join(', ') }));
  });
  // Without a listener Node answers an Expect other than 100-continue with a bodiless 417.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const expectation = String(req.headers.expect).slice(0, 100);
    writeErrorResponse(res, 417, 'INVALID_REQUEST', `Expect: ${JSON.stringify(expectation)} is not supported; only 100-continue is.`);
  });

  let closing: Promise<void> | undefined;
  return {
    server,
    listen: (port, host) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    close: (drain) =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await drain?.();
        server.closeAllConnections();
        await closed;
      })()),
  };
}
