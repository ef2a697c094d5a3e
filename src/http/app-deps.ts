import type { Validators } from '../contract/validation';
import type { JobService } from '../jobs/job-service';
import type { Logger } from '../util/log';
import type { VoiceLibrary } from '../voices/library';
import type { ApiKeySource } from './api-key';
import type { EntitlementProvider } from './entitlements';

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
  /** File name of the whisper model the settings prefer, if any. */
  preferredSttModel?(): string | undefined;
  maxUploadBytes?: number;
  /** OpenAI voice names mapped to our voice ids or names, over the built-in mapping (see voices/voice-map.ts). */
  openAiVoices?: Record<string, string>;
  /** Folders that file-path tools (MCP) may read and write when the client declares no roots; see src/local-files/confined-paths.ts. */
  allowedFolders?(): readonly string[];
}
