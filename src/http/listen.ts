/**
 * The one HTTP listener of the Local API and the relay: header and slow-client limits, a JSON error body
 * for whatever Node refuses before the app sees it, listening, and a graceful close.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { rawErrorResponse, writeErrorResponse } from './raw-error';
import { resolveTimeouts, watchBodyRate, type RequestTimeouts } from './slow-requests';
import { closeIdleSocket, isAnswering, markAnswering } from './idle-close';

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

/** Whether a request asks for a WebSocket: the only upgrade these servers serve (each door checks its own path). */
export const isWebSocketUpgrade = (req: http.IncomingMessage): boolean =>
  String(req.headers.upgrade ?? '')
    .toLowerCase()
    .split(',')
    .some((protocol) => protocol.trim() === 'websocket');

/**
 * Answers a request that offered another upgrade (h2c) as a plain HTTP/1.1 request on its own connection,
 * which then closes. Node has handed the socket over and ended the request it parsed, so the app gets a copy
 * whose body is read from the socket here (by Content-Length; a chunked body is refused with a word on what to
 * send instead).
 */
function answerWithoutUpgrade(server: http.Server, parsed: http.IncomingMessage, socket: Socket, head: Buffer): void {
  const length = Number(parsed.headers['content-length'] ?? 0);
  if (parsed.headers['transfer-encoding'] !== undefined || !Number.isSafeInteger(length) || length < 0) {
    socket.end(
      rawErrorResponse(
        400,
        'Bad Request',
        'INVALID_REQUEST',
        'This server does not upgrade to the protocol asked for, and cannot read a chunked body offered with it: send the request again without the Upgrade header.',
      ),
    );
    return;
  }
  const req = new http.IncomingMessage(socket);
  Object.assign(req, {
    method: parsed.method,
    url: parsed.url,
    headers: parsed.headers,
    rawHeaders: parsed.rawHeaders,
    httpVersion: parsed.httpVersion,
    httpVersionMajor: parsed.httpVersionMajor,
    httpVersionMinor: parsed.httpVersionMinor,
  });
  let left = length;
  const feed = (chunk: Buffer): void => {
    const part = chunk.subarray(0, left);
    left -= part.length;
    // A consumer slower than the client holds the socket back (the request's reads resume it), as Node's parser does.
    if (part.length > 0 && !req.push(part)) socket.pause();
    if (left > 0) return;
    socket.off('data', feed);
    req.complete = true;
    req.push(null);
  };
  socket.on('data', feed);
  feed(head);
  const res = new http.ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.once('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  server.emit('request', req, res);
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
      if (req.httpVersionMajor !== 1) {
        writeErrorResponse(
          res,
          505,
          'INVALID_REQUEST',
          `HTTP/${req.httpVersion.slice(0, 10)} is not supported on this connection: speak HTTP/1.1.`,
        );
        return;
      }
      if (options.requireHost && req.httpVersion === '1.1' && req.headers.host === undefined) {
        writeErrorResponse(res, 400, 'INVALID_REQUEST', 'The request has no Host header, which HTTP/1.1 requires.');
        return;
      }
      watchBodyRate(req, res, timeouts);
      markAnswering(req.socket, res);
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
  // Idle means nothing to do: a connection whose request is still being answered (a transcription the client
  // waits for, a speech request queued behind other work) is silent on both sides but not idle. Cutting it
  // reset stock clients after 60 s and cancelled the job behind them; the client's own timeout rules there.
  server.setTimeout(timeouts.idleMs, (socket: Socket) => {
    if (!isAnswering(socket)) closeIdleSocket(socket);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const response =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? rawErrorResponse(
            431,
            'Request Header Fields Too Large',
            'HEADERS_TOO_LARGE',
            `The request headers are larger than ${MAX_HEADER_BYTES / 1024} KB.`,
          )
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? rawErrorResponse(408, 'Request Timeout', 'INVALID_REQUEST', 'The request was not received in time.')
          : error.code === 'HPE_INVALID_EOF_STATE'
            ? rawErrorResponse(
                400,
                'Bad Request',
                'INVALID_REQUEST',
                'The client stopped sending before the request body was complete (shorter than its Content-Length).',
              )
            : rawErrorResponse(400, 'Bad Request', 'INVALID_REQUEST', 'The request is not valid HTTP.');
    socket.end(response);
  });
  // A door that serves WebSockets listens for 'upgrade', and then Node hands every request with an Upgrade header
  // to 'upgrade', not to the app: `curl --http2` offers h2c on every request and got 404 "No WebSocket is served".
  // An upgrade this server does not serve is ignored, as HTTP allows: the request is answered as HTTP/1.1.
  server.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    if (!isWebSocketUpgrade(req)) answerWithoutUpgrade(server, req, socket, head);
  });
  // Without a listener Node drops a CONNECT without a word: these servers are not proxies, so say so.
  server.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
    socket.end(
      rawErrorResponse(
        405,
        'Method Not Allowed',
        'METHOD_NOT_ALLOWED',
        'CONNECT is not supported: this server is not a proxy.',
        { Allow: options.methods.join(', ') },
      ),
    );
  });
  // Without a listener Node answers an Expect other than 100-continue with a bodiless 417.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const expectation = String(req.headers.expect).slice(0, 100);
    writeErrorResponse(
      res,
      417,
      'INVALID_REQUEST',
      `Expect: ${JSON.stringify(expectation)} is not supported; only 100-continue is.`,
    );
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
