/**
 * GET /v1/realtime?intent=transcription: OpenAI's Realtime transcription over a WebSocket on the Local API's
 * own listener. The upgrade passes the same checks as every request (browser origins, Host, switched off,
 * bearer key, entitlements) and is refused with the Local API's JSON error body before any WebSocket exists;
 * past the session cap it is accepted, told why in an `error` event, and closed with 1013 (try again later).
 * A session that sends nothing for `idleMs`, or whose client stops answering pings, is closed and freed.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiError, invalidRequest } from '../contract/errors';
import type { AppDeps } from '../http/app-deps';
import { rawErrorResponse } from '../http/raw-error';
import { bearerRefusal, browserOriginRefusal, disabledRefusal, featureRefusal, hostRefusal } from '../http/security';
import type { LiveRecognition } from '../jobs/live-recognition';
import { LiveSession, type ServerEvent } from './live-session';
import { liveModelResolver } from './live-model';
import type { SessionForm } from './session-config';

export const REALTIME_PATH = '/v1/realtime';

export interface RealtimeOptions {
  /** Sessions open at once; one more is told so and closed (default 8). */
  maxSessions?: number;
  /** A session with no client event for this long is closed (default 60 s). */
  idleMs?: number;
  /** The largest WebSocket message accepted; a larger one closes the session with 1009 (default 16 MiB, over OpenAI's 15 MB append). */
  maxMessageBytes?: number;
}

export interface RealtimeDoor {
  readonly sessionCount: number;
  close(): Promise<void>;
}

/** OpenAI's transcription model names, which the beta SDK sends as `model` where the GA one sends `intent`. */
const TRANSCRIPTION_MODEL = /^(whisper-1|gpt-4o(-mini)?-transcribe[\w-]*|gpt-transcribe[\w-]*)$/;

export const CLOSE_TRY_AGAIN_LATER = 1013;
export const CLOSE_IDLE = 4000;

export function attachRealtime(server: http.Server, deps: AppDeps, recognition: LiveRecognition, options: RealtimeOptions = {}): RealtimeDoor {
  const maxSessions = options.maxSessions ?? 8;
  const idleMs = options.idleMs ?? 60_000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? 16 * 1024 * 1024, perMessageDeflate: false });
  const sessions = new Set<WebSocket>();
  const resolveModel = liveModelResolver(deps);

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== REALTIME_PATH) return refuse(socket, new ApiError('NOT_FOUND', `No WebSocket is served at ${url.pathname.slice(0, 100)}; live transcription is at ${REALTIME_PATH}?intent=transcription.`));
    const refusal = upgradeRefusal(req, url, deps);
    if (refusal) return refuse(socket, refusal);
    const form: SessionForm = String(req.headers['openai-beta'] ?? '').includes('realtime=v1') ? 'beta' : 'ga';
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (sessions.size >= maxSessions) {
        ws.send(JSON.stringify(withId({ type: 'error', error: { type: 'invalid_request_error', code: 'session_limit_reached', message: `This server runs ${maxSessions} live transcription sessions at most; try again when one ends.`, param: null, event_id: null } })));
        ws.close(CLOSE_TRY_AGAIN_LATER, 'Too many live sessions');
        return;
      }
      sessions.add(ws);
      void serve(ws, form).finally(() => sessions.delete(ws));
    });
  });

  async function serve(ws: WebSocket, form: SessionForm): Promise<void> {
    const send = (event: ServerEvent): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(withId(event)));
    };
    const files = await recognition.openSession();
    const session = new LiveSession({ send, recognition, files, resolveModel, form });
    let idle: NodeJS.Timeout | undefined;
    const touch = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => ws.close(CLOSE_IDLE, 'No audio or events for too long'), idleMs);
    };
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, Math.max(1000, Math.min(15_000, idleMs)));
    ws.on('pong', () => (alive = true));
    const ended = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.on('error', () => ws.terminate());
    const fail = (error: unknown): void => {
      const message = error instanceof Error ? error.message : String(error);
      send({ type: 'error', error: { type: 'invalid_request_error', code: error instanceof ApiError ? error.code : 'server_error', message, param: null, event_id: null } });
      ws.close(1011, 'The session could not start');
    };
    // Events are handled in order, after the session opened: a commit waits for the append before it.
    let queue = session.open().then(touch, fail);
    ws.on('message', (data: Buffer, isBinary) => {
      touch();
      queue = queue.then(() => {
        if (ws.readyState !== ws.OPEN) return undefined;
        if (isBinary) return send({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_event', message: 'Send events as JSON text frames.', param: null, event_id: null } });
        return session.receive(data.toString('utf8'));
      }).catch((error: unknown) => {
        deps.log.warn(`Live session ${session.id}: ${error instanceof Error ? error.message : String(error)}`);
        send({ type: 'error', error: { type: 'server_error', code: 'server_error', message: error instanceof Error ? error.message : String(error), param: null, event_id: null } });
      });
    });
    await ended;
    clearTimeout(idle);
    clearInterval(heartbeat);
    await session.close();
  }

  return {
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      for (const ws of sessions) ws.terminate();
      wss.close();
    },
  };
}

const withId = (event: ServerEvent): ServerEvent => ({ event_id: `event_${randomBytes(11).toString('hex')}`, ...event });

/** The same refusals as every Local API request, in the same order, plus the transcription intent. */
function upgradeRefusal(req: http.IncomingMessage, url: URL, deps: AppDeps): ApiError | undefined {
  const header = (name: string): string => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const refusal = browserOriginRefusal(req.headers.origin, header('sec-fetch-site'))
    ?? hostRefusal(deps.boundHost(), header('host'))
    ?? disabledRefusal(deps.isEnabled())
    ?? (deps.authEnabled() ? bearerRefusal(header('authorization'), deps.apiKeys) : undefined)
    ?? featureRefusal(deps.entitlements, 'app_connection')
    ?? featureRefusal(deps.entitlements, 'stt');
  if (refusal) return refusal;
  const intent = url.searchParams.get('intent');
  const model = url.searchParams.get('model');
  if (intent === 'transcription' || (intent === null && model !== null && TRANSCRIPTION_MODEL.test(model))) return undefined;
  return invalidRequest('intent: this server runs transcription sessions only: connect to /v1/realtime?intent=transcription');
}

function refuse(socket: Duplex, error: ApiError): void {
  socket.end(rawErrorResponse(error.status, http.STATUS_CODES[error.status] ?? 'Error', error.code, error.message, error.headers));
}
