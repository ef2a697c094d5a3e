/** The Local API server: the local job core (local-core.ts) behind an HTTP listener on a loopback or chosen address. */
import { createHttpServer } from '../http/listen';
import type { JobService } from '../jobs/job-service';
import type { EngineHost } from '../jobs/engine-host';
import { liveRecognition, type OpenDirectLiveSession } from '../jobs/live-recognition';
import { directLiveSessions } from '../realtime/direct-session';
import { attachRealtime, type RealtimeDoor } from '../realtime/door';
import type { AppDeps } from '../jobs/app-deps';
import { API_PREFIX, createApp } from './app';
import { openLocalCore, type LocalServerOptions } from './local-core';

export { defaultEngineWorkerPath, type LocalServerOptions } from './local-core';

export interface LocalServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly jobs: JobService;
  readonly engine: EngineHost;
  /** The live transcription sessions (GET /v1/realtime). */
  readonly realtime: RealtimeDoor;
  /** Live sessions open now from every door (the WebSocket's and the in-process ones), against one cap. */
  readonly liveSessionCount: number;
  /** A live transcription session in this process, on the same engine looks as the WebSocket sessions (the extension API's). */
  readonly openLiveSession: OpenDirectLiveSession;
  /** What the app was built from, for other doors on the same core (the MCP server over stdio). */
  readonly appDeps: AppDeps;
  /** Switches the API off (503 LOCAL_API_DISABLED) or on, without stopping the server. */
  setEnabled(enabled: boolean): void;
  setAuth(enabled: boolean): void;
  /** Stops accepting, interrupts running jobs, ends the engine and flushes the store. */
  close(): Promise<void>;
}

export const isAllInterfaces = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '[::]';

export function baseUrl(host: string, port: number): string {
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${port}${API_PREFIX}`;
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const core = await openLocalCore(options);
  const { jobs, engine, appDeps } = core;
  const { dataDir, log } = options;
  const app = createApp(appDeps);

  // A request without Host (HTTP/1.0 style) gets the API's answer; browsers always send one.
  const http = createHttpServer({
    handle: app.callback(),
    timeouts: options.timeouts,
    requireHost: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'OPTIONS'],
  });
  // One set of engine looks, one session cap and one idle limit for every live session, over the WebSocket or in process.
  const recognition = liveRecognition(engine, dataDir, {
    maxSessions: options.realtime?.maxSessions,
    idleMs: options.realtime?.idleMs,
  });
  const realtime = attachRealtime(http.server, appDeps, recognition, options.realtime);
  const port = await http.listen(options.port, options.host).catch(async (error: unknown) => {
    await realtime.close();
    await core.close();
    throw error;
  });
  // After listening, in the background: /health answers while the engine process starts.
  if (options.warmEngine !== false) engine.keepOneWarm();
  // The engine processes get the same configuration, so they decode and encode with this ffmpeg.
  const media = await appDeps.mediaToolchain();
  log.info(
    `Audio decoding and encoding: ffmpeg ${media.description}` +
      (media.kind === 'webassembly'
        ? ' (no system ffmpeg found: install one, or set SPEECH_STUDIO_FFMPEG to it, for faster decoding)'
        : ''),
  );
  if (isAllInterfaces(options.host) && !options.auth) {
    log.warn(
      `The Local API listens on all interfaces (${options.host}) with authentication off: any machine that can reach port ${port} can use it. Turn on --auth and use a firewall.`,
    );
  }

  return {
    url: baseUrl(options.host, port),
    host: options.host,
    port,
    jobs,
    engine,
    realtime,
    get liveSessionCount() {
      return recognition.openSessions;
    },
    openLiveSession: directLiveSessions(appDeps, recognition),
    appDeps,
    setEnabled: (enabled) => core.setEnabled(enabled),
    setAuth: (enabled) => core.setAuth(enabled),
    close: () =>
      http.close(async () => {
        await realtime.close();
        await core.close();
      }),
  };
}
