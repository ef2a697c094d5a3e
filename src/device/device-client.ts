import WebSocket from 'ws';
import type { JobService } from '../jobs/job-service';
import { describeThrown, type Logger } from '../util/log';
import type { VoiceLibrary } from '../voices/library';
import {
  LINK_CLOSE,
  PROTOCOL_VERSION,
  type DeviceLinkState,
  type DeviceMessage,
  type RelayMessage,
} from '../link/protocol';
import { checkDeviceLink, linkUrl } from '../link/relay-address';
import { calibrate } from './calibration';
import { gatherCapabilities } from './capabilities';
import { RemoteJobRunner } from './remote-jobs';
import { SpeedMeter } from './speed-meter';

export interface DeviceClientOptions {
  /** The relay, e.g. https://relay.example.com (with or without /v1). */
  relayUrl: string;
  deviceToken: string;
  jobs: JobService;
  voices: VoiceLibrary;
  dataDir: string;
  log: Logger;
  /** Remote jobs this device takes at once, waiting or running (default 8). */
  queueCapacity?: number;
  preferredSttModel?: () => string | undefined;
  /** First reconnect delay; it doubles up to `maxBackoffMs` (default 250 ms, 30 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Called on every change of `state` (the editor's status bar follows it). */
  onStateChange?: (state: DeviceLinkState) => void;
  /** Measure speed with a short TTS (and STT) run on joining (default true; tests turn it off). */
  calibrate?: boolean;
  /** How long that may take at most (default 8 s). */
  calibrationBudgetMs?: number;
}

export interface DeviceClient {
  readonly state: DeviceLinkState;
  /** The device id the relay confirmed, once connected. */
  readonly deviceId: string | undefined;
  /** The relay's sentence when it refused the token, or why the link stopped by itself. */
  readonly problem: string | undefined;
  /** Resolves at the next `connected` (at once when connected). */
  connected(): Promise<void>;
  /** Closes the link and stops remote jobs still here; no reconnect. */
  close(): Promise<void>;
}

/**
 * The device side of the Remote API: connects out to the relay (so devices behind NAT work), says hello
 * with its capabilities, heart-beats, runs the jobs it is sent and reports them. A dropped link is
 * retried with exponential backoff and jitter; jobs that were here when it dropped are stopped, since the
 * relay has already interrupted or re-routed them. A link the relay replaced with a newer one of the same
 * token (LINK_CLOSE.superseded) is not retried: the newest link wins.
 */
export function startDeviceClient(options: DeviceClientOptions): DeviceClient {
  const origin = checkDeviceLink(options.relayUrl, options.deviceToken);
  const { log } = options;
  const queueCapacity = options.queueCapacity ?? 8;
  const initialBackoff = options.initialBackoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  let state: DeviceLinkState = 'connecting';
  let problem: string | undefined;
  let deviceId: string | undefined;
  let socket: WebSocket | undefined;
  let backoff = initialBackoff;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let lastCapabilities = '';
  let lastSpeeds = '';
  let waiters: Array<() => void> = [];
  let warnedAuth = false;

  const setState = (next: DeviceLinkState, why?: string): void => {
    problem = why;
    if (next === state) return;
    state = next;
    options.onStateChange?.(next);
  };
  const send = (message: DeviceMessage): void => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  const runner = new RemoteJobRunner({ ...options, origin, token: options.deviceToken, queueCapacity, send });
  const capabilities = () => gatherCapabilities(options.dataDir, options.voices, queueCapacity);
  const meter = new SpeedMeter(options.jobs);
  const stopCalibration = new AbortController();

  /** The measured speeds when they changed since last sent (the relay keeps what it was told last). */
  function newSpeeds(): { speeds?: ReturnType<SpeedMeter['reports']> } {
    const speeds = meter.reports();
    const text = JSON.stringify(speeds);
    if (text === lastSpeeds || speeds.length === 0) return {};
    lastSpeeds = text;
    return { speeds };
  }

  async function beat(): Promise<void> {
    const current = await capabilities();
    const text = JSON.stringify(current);
    send({ type: 'heartbeat', ...(text === lastCapabilities ? {} : { capabilities: current }), ...newSpeeds() });
    lastCapabilities = text;
  }

  // A new figure goes out at once rather than at the next heartbeat: the next job's routing can use it.
  meter.onMeasured(() => {
    if (state !== 'connected') return;
    const speeds = newSpeeds();
    if (speeds.speeds) send({ type: 'heartbeat', ...speeds });
  });

  function connect(): void {
    if (state === 'stopped') return;
    // A refused token stays refused through the slow retries, until the relay takes it.
    if (state !== 'refused') setState('connecting');
    const ws = new WebSocket(linkUrl(origin), {
      headers: { Authorization: `Bearer ${options.deviceToken}` },
      handshakeTimeout: 10_000,
    });
    socket = ws;
    ws.on('open', () => {
      void capabilities().then(
        (caps) => {
          lastCapabilities = JSON.stringify(caps);
          lastSpeeds = '';
          send({
            type: 'hello',
            protocol: PROTOCOL_VERSION,
            capabilities: caps,
            activeJobs: runner.active(),
            ...newSpeeds(),
          });
        },
        (error) => ws.close(4005, describeThrown(error).slice(0, 100)),
      );
    });
    ws.on('message', (data) => {
      let message: RelayMessage;
      try {
        message = JSON.parse((data as Buffer).toString()) as RelayMessage;
      } catch {
        return;
      }
      if (message.type === 'welcome') {
        deviceId = message.deviceId;
        setState('connected');
        backoff = initialBackoff;
        warnedAuth = false;
        log.info(`Connected to the relay ${origin.origin} as ${message.deviceId}.`);
        clearInterval(heartbeat);
        heartbeat = setInterval(() => void beat().catch(() => undefined), message.heartbeatMs);
        heartbeat.unref();
        for (const resolve of waiters.splice(0)) resolve();
      } else if (message.type === 'assign') {
        void runner.start(message.job);
      } else if (message.type === 'cancel') {
        void runner.cancel(message.jobId);
      }
    });
    ws.on('unexpected-response', (_req, res) => {
      // 401: the token; 403: this relay name is not one the relay answers to. Retrying fast helps neither.
      const status = res.statusCode ?? 0;
      if (status !== 401 && status !== 403) return void ws.terminate();
      backoff = maxBackoff;
      // The relay says why in its JSON error body; read it (briefly) before closing.
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => void (body.length < 4_000 && (body += chunk)));
      let done = false;
      const refuse = (): void => {
        if (done || socket !== ws) return;
        done = true;
        const sentence = relaySentence(body) ?? `The relay refused this device's link (${status}).`;
        if (!warnedAuth)
          log.error(`${sentence}${status === 401 ? ' Enrol the device again and update the token.' : ''}`);
        warnedAuth = true;
        setState('refused', sentence);
        ws.terminate();
      };
      res.once('end', refuse);
      res.once('error', refuse);
      res.once('close', refuse);
    });
    ws.on('error', (error) => {
      // Once per outage: a relay that is restarting refuses every retry until it is back.
      if (state === 'connected' || backoff === initialBackoff) log.warn(`Relay link: ${describeThrown(error)}`);
    });
    ws.on('close', (code, reason) => {
      clearInterval(heartbeat);
      if (socket !== ws) return;
      socket = undefined;
      void runner.cancelAll();
      if (state === 'stopped') return;
      if (code === LINK_CLOSE.superseded.code) {
        // Reconnecting would push the other link off in turn, each time interrupting its jobs: stop here.
        const why =
          `The relay ${origin.origin} replaced this device's link with a newer one using the same device token ` +
          `(${reason.toString() || LINK_CLOSE.superseded.reason}). Two devices cannot share one token: enrol this device ` +
          "separately in the relay's portal and give it its own token.";
        log.error(`${why} This device stays off the relay until Speech Studio restarts.`);
        setState('stopped', why);
        return;
      }
      if (state === 'connected') log.warn('The link to the relay dropped; reconnecting.');
      if (state !== 'refused') setState('disconnected');
      const delay = Math.round(backoff * (0.8 + Math.random() * 0.4));
      backoff = Math.min(maxBackoff, backoff * 2);
      retryTimer = setTimeout(connect, delay);
    });
  }

  connect();
  if (options.calibrate !== false) {
    void calibrate({
      ...options,
      budgetMs: options.calibrationBudgetMs,
      signal: stopCalibration.signal,
      ignore: (id) => meter.ignore(id),
    }).then(() => {
      const measured = meter
        .reports()
        .map((r) => `${r.engine} ${r.realTimeFactor}`)
        .join(', ');
      if (measured) log.info(`Speed calibration: real-time factor ${measured}.`);
    });
  }
  return {
    get state() {
      return state;
    },
    get deviceId() {
      return deviceId;
    },
    get problem() {
      return problem;
    },
    connected: () =>
      state === 'connected' ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    async close() {
      setState('stopped');
      stopCalibration.abort();
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      waiters = [];
      const ws = socket;
      socket = undefined;
      if (ws && ws.readyState !== WebSocket.CLOSED) {
        await new Promise<void>((resolve) => {
          ws.once('close', () => resolve());
          ws.close(1000, 'device stopping');
          setTimeout(() => (ws.terminate(), resolve()), 2_000).unref();
        });
      }
      await runner.cancelAll();
      runner.dispose();
      meter.dispose();
    },
  };
}

/** The `error.message` of the relay's JSON error body, if that is what `body` is. */
function relaySentence(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' && message.trim() ? message.trim().slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

export type { DeviceLinkState } from '../link/protocol';
