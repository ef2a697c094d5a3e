import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../util/usage-error';
import { parseAllowedHosts } from '../allowed-hosts';

export interface RelayFlags {
  host?: string;
  port?: string;
  'data-dir'?: string;
  'database-url'?: string;
  'storage-dir'?: string;
  'retention-hours'?: string;
  'secure-cookies'?: boolean;
  'trust-proxy'?: boolean;
  'allowed-hosts'?: string;
}

export interface ResolvedRelayOptions {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  storageDir?: string;
  retentionMs?: number;
  offlineAfterMs?: number;
  heartbeatMs?: number;
  secureCookies: boolean;
  trustProxy: boolean;
  adminPassword?: string;
  allowedHosts?: string[];
}

/** Linux `$XDG_DATA_HOME/speech-studio-relay`, macOS and Windows their application-data folders. */
export function defaultRelayDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'Speech Studio Relay');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'Speech Studio Relay');
  return path.join(env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'speech-studio-relay');
}

function positiveNumber(text: string | undefined, what: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`Expected ${what} to be a positive number, got ${JSON.stringify(text)}.`);
  return value;
}

/** Flags win over RELAY_* / DATABASE_URL environment variables, which win over the defaults. */
export function resolveRelayOptions(flags: RelayFlags, env: NodeJS.ProcessEnv = process.env): ResolvedRelayOptions {
  const portText = flags.port ?? env.RELAY_PORT ?? '17880';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`Expected a port from 0 to 65535, got ${JSON.stringify(portText)}.`);
  const databaseUrl = flags['database-url'] ?? env.DATABASE_URL;
  if (databaseUrl !== undefined && databaseUrl !== '' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError(`Expected --database-url postgres://…, got ${JSON.stringify(databaseUrl.replace(/:[^:@/]*@/, ':***@'))}.`);
  }
  const retentionHours = positiveNumber(flags['retention-hours'] ?? env.RELAY_RETENTION_HOURS, '--retention-hours');
  const storageDir = flags['storage-dir'] ?? env.RELAY_STORAGE_DIR;
  const allowedHosts = parseAllowedHosts(flags['allowed-hosts'] ?? env.RELAY_ALLOWED_HOSTS ?? '');
  const badHost = allowedHosts.find((entry) => !/^\.?[a-z0-9.:_-]+$/.test(entry));
  if (badHost !== undefined) throw new UsageError(`Expected --allowed-hosts to list host names such as relay.example.com or .example.com, got ${JSON.stringify(badHost)}.`);
  return {
    host: flags.host ?? env.RELAY_HOST ?? '127.0.0.1',
    port,
    dataDir: path.resolve(flags['data-dir'] ?? env.RELAY_DATA_DIR ?? defaultRelayDataDir(env)),
    databaseUrl: databaseUrl || undefined,
    storageDir: storageDir ? path.resolve(storageDir) : undefined,
    retentionMs: retentionHours === undefined ? undefined : retentionHours * 3600_000,
    // For tests and small deployments that want faster failure detection than the 30 s default.
    offlineAfterMs: positiveNumber(env.RELAY_OFFLINE_AFTER_MS, 'RELAY_OFFLINE_AFTER_MS'),
    heartbeatMs: positiveNumber(env.RELAY_HEARTBEAT_MS, 'RELAY_HEARTBEAT_MS'),
    secureCookies: flags['secure-cookies'] ?? env.RELAY_SECURE_COOKIES === '1',
    trustProxy: flags['trust-proxy'] ?? env.RELAY_TRUST_PROXY === '1',
    adminPassword: env.RELAY_ADMIN_PASSWORD || undefined,
    allowedHosts: allowedHosts.length > 0 ? allowedHosts : undefined,
  };
}
