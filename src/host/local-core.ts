/**
 * The local job core without a listener: the store, the engine, the job service and what the doors need of
 * them (AppDeps). The Local API server listens on top of it; the MCP server over stdio uses it alone.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { compileValidators } from '../contract/validation';
import { engineConfigFromEnvironment } from '../config/engine-environment';
import { openAiVoicesFromEnvironment } from '../config/server-environment';
import type { EngineConfig } from '../engine-api/engine-config';
import { mediaToolchainInfo } from '../engine-api/media-toolchain';
import type { RequestTimeouts } from '../http/slow-requests';
import { EngineHost } from '../jobs/engine-host';
import { JobService } from '../jobs/job-service';
import { JobStore } from '../jobs/store';
import {
  cachePrunerFor,
  configuredCacheLimits,
  releaseCachePruner,
  type CacheLimitOverrides,
} from '../util/data-dir-caches';
import type { Logger } from '../util/log';
import { createVoiceLibrary } from '../voices/library';
import { apiKeyPath, ensureApiKey, FileApiKeySource, type ApiKeySource } from '../http/api-key';
import type { AppDeps } from '../jobs/app-deps';
import { localEntitlements, type EntitlementProvider } from '../http/entitlements';
import { foldersFromEnvironment } from '../local-files/allowed-folders-env';
import type { RealtimeOptions } from '../realtime/door';

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
  maxFinishedJobs?: number;
  /** The bundled engine worker (dist/engine-worker.js). */
  engineWorkerPath?: string;
  engineIdleTimeoutMs?: number;
  /** Keeps one engine process ready from the start (engine-host.ts keepOneWarm); default true. */
  warmEngine?: boolean;
  /**
   * The engine configuration (ffmpeg, threads, process cap…), built once by the CLI or the editor
   * (src/config/engine-environment.ts); default: built from the environment for each new engine process.
   */
  engineConfig?: EngineConfig;
  preferredSttModel?: string;
  maxUploadBytes?: number;
  /** OpenAI voice names mapped to our voice ids or names (the OpenAI door; see voices/voice-map.ts), over SPEECH_STUDIO_OPENAI_VOICES. */
  openAiVoices?: Record<string, string>;
  /** Folders the MCP file tools may use when a client declares no roots, beside SPEECH_STUDIO_ALLOWED_FOLDERS. */
  allowedFolders?: () => readonly string[];
  /** Slow-client limits (slowloris); defaults in DEFAULT_TIMEOUTS. */
  timeouts?: Partial<RequestTimeouts>;
  /** Size and age caps of the data directory's caches, over SPEECH_STUDIO_CACHE_LIMITS and the defaults (src/util/data-dir-caches.ts). */
  cacheLimits?: CacheLimitOverrides;
  /** Live transcription: the session cap and idle limit over every door (GET /v1/realtime, in-process sessions), and the WebSocket's largest message. */
  realtime?: RealtimeOptions;
}

export interface LocalCore {
  readonly jobs: JobService;
  readonly engine: EngineHost;
  readonly appDeps: AppDeps;
  setEnabled(enabled: boolean): void;
  setAuth(enabled: boolean): void;
  /** Interrupts running jobs, ends the engine and flushes the store. */
  close(): Promise<void>;
}

export const defaultEngineWorkerPath = (): string => path.join(__dirname, 'engine-worker.js');

export async function openLocalCore(options: LocalServerOptions): Promise<LocalCore> {
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
  // Passed on, never set for the whole process: two cores in one process (tests, the editor's restarts) keep their own.
  const engineConfig = options.engineConfig ?? (() => engineConfigFromEnvironment());
  const currentEngineConfig = (): EngineConfig => (typeof engineConfig === 'function' ? engineConfig() : engineConfig);
  const engine = new EngineHost({
    workerPath: options.engineWorkerPath ?? defaultEngineWorkerPath(),
    log,
    idleTimeoutMs: options.engineIdleTimeoutMs,
    config: engineConfig,
  });
  const jobs = new JobService({
    dataDir,
    store,
    engine,
    log,
    capacity: options.queueCapacity ?? 32,
    maxFinishedJobs: options.maxFinishedJobs ?? 1000,
  });
  await jobs.recover();

  let enabled = true;
  let auth = options.auth;
  const appDeps: AppDeps = {
    dataDir,
    jobs,
    log,
    apiKeys,
    voices: createVoiceLibrary({ dataDir }),
    validators: compileValidators(),
    entitlements: options.entitlements ?? localEntitlements(),
    authEnabled: () => auth,
    isEnabled: () => enabled,
    boundHost: () => options.host,
    engineConfig: currentEngineConfig,
    mediaToolchain: () => mediaToolchainInfo(currentEngineConfig()),
    preferredSttModel: () => options.preferredSttModel,
    maxUploadBytes: options.maxUploadBytes,
    openAiVoices: { ...openAiVoicesFromEnvironment(process.env), ...options.openAiVoices },
    allowedFolders: () => [...(options.allowedFolders?.() ?? []), ...foldersFromEnvironment(process.env)],
  };
  return {
    jobs,
    engine,
    appDeps,
    setEnabled: (value) => (enabled = value),
    setAuth: (value) => (auth = value),
    close: async () => {
      appDeps.voices.close();
      await jobs.shutdown();
      await releaseCachePruner(dataDir);
    },
  };
}
