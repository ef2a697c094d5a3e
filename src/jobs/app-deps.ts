/**
 * What the doors are built from: the job core, the voice library and the validators, with the HTTP mechanisms'
 * settings (key, entitlements, bound host). The host fills it (src/host/local-core.ts); it lives beside the
 * core so that src/http/, the plumbing the doors share, never imports the core.
 */
import type { Validators } from '../contract/validation';
import type { EngineConfig } from '../engine-api/engine-config';
import type { MediaToolchainInfo } from '../engine-api/media-toolchain';
import type { JobService } from './job-service';
import type { Logger } from '../util/log';
import type { VoiceLibrary } from '../voices/library';
import type { ApiKeySource } from '../http/api-key';
import type { EntitlementProvider } from '../http/entitlements';

/** Everything the Koa app needs; `createApp` builds routes from these and never listens by itself. */
export interface AppDeps {
  dataDir: string;
  jobs: JobService;
  voices: VoiceLibrary;
  validators: Validators;
  entitlements: EntitlementProvider;
  apiKeys: ApiKeySource;
  log: Logger;
  authEnabled(): boolean;
  isEnabled(): boolean;
  /** The address the server is bound to, for the DNS-rebinding check. */
  boundHost(): string;
  /** The engine configuration the host hands its engine processes (e.g. the VAD model a task names). */
  engineConfig(): EngineConfig;
  /** The ffmpeg the engine's configuration selects, described once (GET /capabilities). */
  mediaToolchain(): Promise<MediaToolchainInfo>;
  /** File name of the whisper model the settings prefer, if any. */
  preferredSttModel?(): string | undefined;
  maxUploadBytes?: number;
  /** OpenAI voice names mapped to our voice ids or names, over the built-in mapping (see voices/voice-map.ts). */
  openAiVoices?: Record<string, string>;
  /** Folders that file-path tools (MCP) may read and write when the client declares no roots; see src/local-files/confined-paths.ts. */
  allowedFolders?(): readonly string[];
}
