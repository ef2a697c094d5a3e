/**
 * GET /v1/realtime?intent=transcription: OpenAI's Realtime transcription over a WebSocket on the Local API's
 * own listener. The upgrade passes the same checks as every request (browser origins, Host, switched off,
 * bearer key, entitlements) and is refused with the Local API's JSON error body before any WebSocket exists;
 * past the live session cap (src/jobs/live-recognition.ts: one cap for the sessions of every door) it is
 * accepted, told why in an `error` event, and closed with 1013 (try again later). A session that sends nothing
 * for the idle limit is closed with 4000; one whose client stops answering pings is dropped; both are freed.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiError, hasCode, invalidRequest } from '../contract/errors';
import type { AppDeps } from '../jobs/app-deps';
import { isWebSocketUpgrade } from '../http/listen';
import { rawApiErrorResponse } from '../http/raw-error';
import { bearerRefusal, browserOriginRefusal, disabledRefusal, featureRefusal, hostRefusal } from '../http/security';
import { type LiveRecognition, type LiveSessionFiles, type LiveSessionLimits } from '../jobs/live-recognition';
import { sharedAudioThreads } from './audio-thread';
import { LiveSession, type ServerEvent } from './live-session';
import { isTranscriptionModelName, liveModelResolver } from './live-model';
import type { SessionForm } from './session-config';
import { chooseProtocol, offeredProtocols } from './subprotocols';

export const REALTIME_PATH = '/v1/realtime';

/** The live session rules (cap, idle limit) that every door shares, plus this door's own message size limit. */
export interface RealtimeOptions extends LiveSessionLimits {
  /** The largest WebSocket message accepted; a larger one closes the session with 1009 (default 16 MiB, over OpenAI's 15 MB append). */
  maxMessageBytes?: number;
}

export interface RealtimeDoor {
  readonly sessionCount: number;
  close(): Promise<void>;
}

export const CLOSE_TRY_AGAIN_LATER = 1013;
export const CLOSE_IDLE = 4000;
const CLOSE_GOING_AWAY = 1001;
const CLOSE_POLICY_VIOLATION = 1008;
/** Messages (or bytes) waiting in a session past which its socket is not read until it caught up. */
const PAUSE_AT_MESSAGES = 256;
const PAUSE_AT_BYTES = 32 * 1024 * 1024;
/**
 * Messages waiting past which the session is closed with 1008. Reading stops at PAUSE_AT_MESSAGES, so only
 * what one read of the socket already held comes on top (64 KiB: fewer than 11 000 empty frames).
 */
const MAX_WAITING_MESSAGES = 20_000;
/** Waiting messages are handled this many at a time, or for this long, before the event loop is served. */
const YIELD_EVERY_MESSAGES = 64;
const YIELD_EVERY_MS = 10;
/** How long a shutdown waits for clients to answer their close frames. */
const CLOSE_WAIT_MS = 1000;
/**
 * Bytes of events the client has not read past which the session is closed with 1008: a client that never
 * reads would otherwise have the server hold every event it is sent (341 MB seen).
 */
export const MAX_UNREAD_EVENT_BYTES = 4 * 1024 * 1024;

export function attachRealtime(
  server: http.Server,
  deps: AppDeps,
  recognition: LiveRecognition,
  options: RealtimeOptions = {},
): RealtimeDoor {
  // A client that vanished without closing stops answering pings: two missed beats and it is dropped.
  const heartbeatMs = Math.max(1000, Math.min(15_000, recognition.limits.idleMs));
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? 16 * 1024 * 1024,
    perMessageDeflate: false,
    handleProtocols: chooseProtocol,
  });
  const sessions = new Set<WebSocket>();
  const resolveModel = liveModelResolver(deps);

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isWebSocketUpgrade(req)) return; // the listener answers it as a plain request
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== REALTIME_PATH)
      return refuse(
        socket,
        new ApiError(
          'NOT_FOUND',
          `No WebSocket is served at ${url.pathname.slice(0, 100)}; live transcription is at ${REALTIME_PATH}?intent=transcription.`,
        ),
      );
    const refusal = upgradeRefusal(req, url, deps);
    if (refusal) return refuse(socket, refusal);
    const betaAsked =
      String(req.headers['openai-beta'] ?? '').includes('realtime=v1') ||
      offeredProtocols(req.headers['sec-websocket-protocol']).beta;
    const form: SessionForm = betaAsked ? 'beta' : 'ga';
    wss.handleUpgrade(req, socket, head, (ws) => {
      sessions.add(ws);
      void serve(ws, form).finally(() => sessions.delete(ws));
    });
  });

  async function serve(ws: WebSocket, form: SessionForm): Promise<void> {
    const send = (event: ServerEvent): void => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(JSON.stringify(withId(event)));
      if (ws.bufferedAmount > MAX_UNREAD_EVENT_BYTES) dropSlowReader();
    };
    // The close frame waits behind the unread events, so a client that still does not read is cut after a while.
    const dropSlowReader = (): void => {
      ws.pause();
      ws.close(CLOSE_POLICY_VIOLATION, 'The client does not read its events');
      setTimeout(() => ws.terminate(), CLOSE_WAIT_MS).unref();
    };
    const sendError = (type: string, code: string, error: unknown): void =>
      send({
        type: 'error',
        error: {
          type,
          code,
          message: error instanceof Error ? error.message : String(error),
          param: null,
          event_id: null,
        },
      });
    const ended = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.on('error', () => ws.terminate());
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, heartbeatMs);
    ws.on('pong', () => (alive = true));
    // The slot is taken in this call, before any await: of many clients at once, exactly the cap get sessions.
    const opening = recognition.openSession(() => ws.close(CLOSE_IDLE, 'No audio or events for too long'));
    let files: LiveSessionFiles | undefined;
    let session: LiveSession | undefined;
    // Events are handled in order, after the session opened: a commit waits for the append before it.
    const ready = opening.then(
      (opened) => {
        files = opened;
        session = new LiveSession({
          send,
          recognition,
          files: opened,
          resolveModel,
          form,
          audio: sharedAudioThreads(),
        });
        return session.open().catch((error: unknown) => {
          sendError('invalid_request_error', error instanceof ApiError ? error.code : 'server_error', error);
          ws.close(1011, 'The session could not start');
        });
      },
      (error: unknown) => {
        const limited = hasCode(error, 'session_limit_reached');
        if (!limited)
          deps.log.warn(`A live session could not open: ${error instanceof Error ? error.message : String(error)}`);
        sendError(limited ? 'invalid_request_error' : 'server_error', limited ? error.code : 'server_error', error);
        ws.close(
          limited ? CLOSE_TRY_AGAIN_LATER : 1011,
          limited ? 'Too many live sessions' : 'The session could not start',
        );
      },
    );
    const handle = async (data: Buffer, isBinary: boolean): Promise<void> => {
      try {
        if (!session) return;
        files?.touch();
        if (isBinary)
          return send({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: 'invalid_event',
              message: 'Send events as JSON text frames.',
              param: null,
              event_id: null,
            },
          });
        await session.receive(data.toString('utf8'));
      } catch (error) {
        deps.log.warn(`Live session ${session?.id}: ${error instanceof Error ? error.message : String(error)}`);
        sendError('server_error', 'server_error', error);
      }
    };
    // A burst of messages (thousands of frames in one write) is bounded: past PAUSE_AT the socket is not read
    // until the session caught up, and the messages are handled a few at a time, the event loop served between.
    const waiting: Array<{ data: Buffer; isBinary: boolean }> = [];
    let waitingBytes = 0;
    let draining = false;
    const drain = async (): Promise<void> => {
      draining = true;
      await ready;
      let slice = performance.now();
      let handled = 0;
      for (let next = waiting.shift(); next && ws.readyState === ws.OPEN; next = waiting.shift()) {
        waitingBytes -= next.data.length;
        await handle(next.data, next.isBinary);
        if (ws.isPaused && waiting.length <= PAUSE_AT_MESSAGES / 2 && waitingBytes <= PAUSE_AT_BYTES / 2) ws.resume();
        handled += 1;
        if (handled % YIELD_EVERY_MESSAGES === 0 || performance.now() - slice >= YIELD_EVERY_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
      }
      waiting.length = 0;
      waitingBytes = 0;
      draining = false;
    };
    let overflowed = false;
    ws.on('message', (data: Buffer, isBinary) => {
      if (overflowed) return;
      if (waiting.length >= MAX_WAITING_MESSAGES) {
        overflowed = true;
        sendError(
          'invalid_request_error',
          'too_many_events',
          new Error(
            `More than ${MAX_WAITING_MESSAGES} events arrived before the session could handle them; the session is closed.`,
          ),
        );
        ws.close(CLOSE_POLICY_VIOLATION, 'Too many events at once');
        return;
      }
      waiting.push({ data, isBinary });
      waitingBytes += data.length;
      if (!ws.isPaused && (waiting.length >= PAUSE_AT_MESSAGES || waitingBytes >= PAUSE_AT_BYTES)) ws.pause();
      if (!draining) void drain();
    });
    await ended;
    clearInterval(heartbeat);
    const opened = await opening.catch(() => undefined);
    await session?.close();
    await opened?.release();
  }

  return {
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      // A close frame tells the client the server is going away (1001), where a cut connection says only 1006;
      // a client that does not answer its close frame in time is cut all the same.
      const ended = [...sessions].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close(CLOSE_GOING_AWAY, 'The server is shutting down');
          }),
      );
      const cutOff = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
      await Promise.race([Promise.all(ended), cutOff]);
      for (const ws of sessions) ws.terminate();
      wss.close();
    },
  };
}

const withId = (event: ServerEvent): ServerEvent => ({
  event_id: `event_${randomBytes(11).toString('hex')}`,
  ...event,
});

/** The same refusals as every Local API request, in the same order, plus the transcription intent. */
function upgradeRefusal(req: http.IncomingMessage, url: URL, deps: AppDeps): ApiError | undefined {
  const header = (name: string): string => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const refusal =
    browserOriginRefusal(req.headers.origin, header('sec-fetch-site')) ??
    hostRefusal(deps.boundHost(), header('host')) ??
    disabledRefusal(deps.isEnabled()) ??
    (deps.authEnabled() ? bearerRefusal(authorization(req), deps.apiKeys) : undefined) ??
    featureRefusal(deps.entitlements, 'app_connection') ??
    featureRefusal(deps.entitlements, 'stt');
  if (refusal) return refusal;
  const intent = url.searchParams.get('intent');
  const model = url.searchParams.get('model');
  if (intent === 'transcription' || (intent === null && model !== null && isTranscriptionModelName(model)))
    return undefined;
  return invalidRequest(
    'intent: this server runs transcription sessions only: connect to /v1/realtime?intent=transcription',
  );
}

/** The Authorization header, or the key a browser-style client passed as a subprotocol, as the same header. */
function authorization(req: http.IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  if (header !== '') return header;
  const { key } = offeredProtocols(req.headers['sec-websocket-protocol']);
  return key === undefined ? '' : `Bearer ${key}`;
}

function refuse(socket: Duplex, error: ApiError): void {
  socket.end(rawApiErrorResponse(error, http.STATUS_CODES[error.status] ?? 'Error'));
}
