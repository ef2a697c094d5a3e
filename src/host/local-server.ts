import { promises as fs } from 'node:fs';
import path from 'node:path';
import { compileValidators } from '../contract/validation';
import { engineConfigFromEnvironment } from '../config/engine-environment';
import { configureEngine, type EngineConfig } from '../engine/engine-config';
import { mediaToolchainInfo } from '../engine/media/media-toolchain';
import { createHttpServer } from '../http/listen';
import type { RequestTimeouts } from '../http/slow-requests';
import { EngineHost } from '../jobs/engine-host';
import { JobService } from '../jobs/job-service';
import { JobStore } from '../jobs/store';
import { cachePrunerFor, configuredCacheLimits, releaseCachePruner, type CacheLimitOverrides } from '../util/data-dir-caches';
import type { Logger } from '../util/log';
import { createVoiceLibrary } from '../voices/library';
import { apiKeyPath, ensureApiKey, FileApiKeySource, type ApiKeySource } from '../http/api-key';
import { API_PREFIX, createApp } from './app';
import type { AppDeps } from '../http/app-deps';
import { localEntitlements, type EntitlementProvider } from '../http/entitlements';

export interface LocalServerOptions {
  host: string;
  port: number;
  dataDir: string;
  auth: boolean;
  log: Logger;
  /** Where the key comes from; default: `<data-dir>/api-key`, created on first start with auth on. */
  apiKeys?: ApiKeySource;
  entitlements?: EntitlementProvider;
  queueCapacity?: number;
  concurrency?: number;
  maxFinishedJobs?: number;
  /** The bundled engine worker (dist/engine-worker.js). */
  engineWorkerPath?: string;
  engineIdleTimeoutMs?: number;
  /**
   * The engine configuration (ffmpeg, threads, process cap…), built once by the CLI or the editor
   * (src/config/engine-environment.ts); default: built from the environment for each new engine process.
   */
  engineConfig?: EngineConfig;
  preferredSttModel?: string;
  maxUploadBytes?: number;
  /** OpenAI voice names mapped to our voice ids or names (the OpenAI door; see voices/voice-map.ts). */
  openAiVoices?: Record<string, string>;
  /** Slow-client limits (slowloris); defaults in DEFAULT_TIMEOUTS. */
  timeouts?: Partial<RequestTimeouts>;
  /** Size and age caps of the data directory's caches, over SPEECH_STUDIO_CACHE_LIMITS and the defaults (src/util/data-dir-caches.ts). */
  cacheLimits?: CacheLimitOverrides;
}

export interface LocalServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly jobs: JobService;
  readonly engine: EngineHost;
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

export const defaultEngineWorkerPath = (): string => path.join(__dirname, 'engine-worker.js');

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { dataDir, log } = options;
  await fs.mkdir(dataDir, { recursive: true });
  if (options.auth && !options.apiKeys) await ensureApiKey(dataDir);
  const apiKeys = options.apiKeys ?? new FileApiKeySource(apiKeyPath(dataDir));

  const cacheLimits = configuredCacheLimits(process.env, options.cacheLimits ?? {}, log);
  const store = await JobStore.open(path.join(dataDir, 'jobs.json'), log);
  // After the store, which may just have kept a damaged file aside; in the background: start-up does not wait.
  const caches = cachePrunerFor(dataDir);
  caches.configure(cacheLimits, log);
  caches.pruneAll().catch((error: unknown) => log.warn(`Pruning the caches failed: ${String(error)}`));
  // Engine code that runs in this process (the capabilities' ffmpeg, the audiobook export) follows the same configuration.
  if (options.engineConfig) configureEngine(options.engineConfig);
  const engine = new EngineHost({
    workerPath: options.engineWorkerPath ?? defaultEngineWorkerPath(),
    log,
    idleTimeoutMs: options.engineIdleTimeoutMs,
    config: options.engineConfig ?? (() => engineConfigFromEnvironment()),
  });
  const jobs = new JobService({
    dataDir, store, engine, log,
    capacity: options.queueCapacity ?? 32,
    concurrency: options.concurrency ?? 1,
    maxFinishedJobs: options.maxFinishedJobs ?? 1000,
  });
  await jobs.recover();

  let enabled = true;
  let auth = options.auth;
  const appDeps: AppDeps = {
    dataDir, jobs, log, apiKeys,
    voices: createVoiceLibrary({ dataDir }),
    validators: compileValidators(),
    entitlements: options.entitlements ?? localEntitlements(),
    authEnabled: () => auth,
    isEnabled: () => enabled,
    boundHost: () => options.host,
    preferredSttModel: () => options.preferredSttModel,
    maxUploadBytes: options.maxUploadBytes,
    openAiVoices: options.openAiVoices,
  };
  const app = createApp(appDeps);

  // A request without Host (HTTP/1.0 style) gets the API's answer; browsers always send one.
  const http = createHttpServer({ handle: app.callback(), timeouts: options.timeouts, methods: ['GET', 'HEAD', 'POST', 'OPTIONS'] });
  const port = await http.listen(options.port, options.host);
  // The engine decides the same way from the same environment; the opus route runs here.
  const media = await mediaToolchainInfo();
  log.info(`Audio decoding and encoding: ffmpeg ${media.description}` +
    (media.kind === 'webassembly' ? ' (no system ffmpeg found: install one, or set SPEECH_STUDIO_FFMPEG to it, for faster decoding)' : ''));
  if (isAllInterfaces(options.host) && !options.auth) {
    log.warn(`The Local API listens on all interfaces (${options.host}) with authentication off: any machine that can reach port ${port} can use it. Turn on --auth and use a firewall.`);
  }

  return {
    url: baseUrl(options.host, port),
    host: options.host,
    port,
    jobs,
    engine,
    appDeps,
    setEnabled: (value) => (enabled = value),
    setAuth: (value) => (auth = value),
    close: () => http.close(async () => {
      await jobs.shutdown();
      await releaseCachePruner(dataDir);
    }),
  };
}
