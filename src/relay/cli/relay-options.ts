import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../util/usage-error';
import { parseAllowedHosts } from '../allowed-hosts';
import { parseS3Url, type S3StoreConfig } from '../storage/s3-location';

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
  storage?: string;
  's3-endpoint'?: string;
  's3-region'?: string;
  's3-path-style'?: boolean;
  's3-access-key-id'?: string;
  's3-secret-access-key'?: string;
  'metrics-token'?: string;
}

export interface ResolvedRelayOptions {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  storageDir?: string;
  /** Uploads and outputs in an S3-compatible bucket instead of a folder. */
  s3?: S3StoreConfig;
  /** Serves GET /metrics to `Authorization: Bearer <token>`; undefined: no /metrics. */
  metricsToken?: string;
  retentionMs?: number;
  offlineAfterMs?: number;
  heartbeatMs?: number;
  secureCookies: boolean;
  trustProxy: boolean;
  adminPassword?: string;
  allowedHosts?: string[];
}

/** Linux `$XDG_DATA_HOME/speech-studio-relay`, macOS and Windows their application-data folders. */
export function defaultRelayDataDir(env: NodeJS.ProcessEnv, platform = process.platform): string {
  if (platform === 'win32')
    return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'Speech Studio Relay');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'Speech Studio Relay');
  return path.join(env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'speech-studio-relay');
}

function positiveNumber(text: string | undefined, what: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError(`Expected ${what} to be a positive number, got ${JSON.stringify(text)}.`);
  return value;
}

/** `--storage s3://…` with its endpoint, region and credentials from flags, else the standard AWS variables. */
function resolveS3(flags: RelayFlags, env: NodeJS.ProcessEnv): S3StoreConfig | undefined {
  const location = flags.storage ?? env.RELAY_STORAGE;
  if (location === undefined || location === '') return undefined;
  let parsed: { bucket: string; prefix: string };
  try {
    parsed = parseS3Url(location);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const endpoint = flags['s3-endpoint'] ?? (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined);
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) {
    throw new UsageError(
      `Expected --s3-endpoint such as https://s3.example.com or http://127.0.0.1:9000, got ${JSON.stringify(endpoint)}.`,
    );
  }
  const accessKeyId = flags['s3-access-key-id'] ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = flags['s3-secret-access-key'] ?? env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new UsageError(
      'S3 storage needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or --s3-access-key-id and --s3-secret-access-key).',
    );
  }
  return {
    ...parsed,
    endpoint: endpoint?.replace(/\/$/, ''),
    region: flags['s3-region'] ?? (env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1'),
    forcePathStyle: flags['s3-path-style'] ?? env.RELAY_S3_PATH_STYLE === '1',
    // A session token only belongs with the environment's own keys.
    credentials: {
      accessKeyId,
      secretAccessKey,
      sessionToken: flags['s3-access-key-id'] ? undefined : env.AWS_SESSION_TOKEN || undefined,
    },
  };
}

/** Flags win over RELAY_* / DATABASE_URL environment variables, which win over the defaults. */
export function resolveRelayOptions(flags: RelayFlags, env: NodeJS.ProcessEnv): ResolvedRelayOptions {
  const portText = flags.port ?? env.RELAY_PORT ?? '17880';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new UsageError(`Expected a port from 0 to 65535, got ${JSON.stringify(portText)}.`);
  const databaseUrl = flags['database-url'] ?? env.DATABASE_URL;
  if (databaseUrl !== undefined && databaseUrl !== '' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError(
      `Expected --database-url postgres://…, got ${JSON.stringify(databaseUrl.replace(/:[^:@/]*@/, ':***@'))}.`,
    );
  }
  const retentionHours = positiveNumber(flags['retention-hours'] ?? env.RELAY_RETENTION_HOURS, '--retention-hours');
  const storageDir = flags['storage-dir'] ?? env.RELAY_STORAGE_DIR;
  const s3 = resolveS3(flags, env);
  if (s3 && storageDir) throw new UsageError('Expected either --storage s3://… or --storage-dir, not both.');
  const metricsToken = flags['metrics-token'] ?? env.RELAY_METRICS_TOKEN;
  if (metricsToken !== undefined && metricsToken !== '' && !/^[\x21-\x7e]{16,}$/.test(metricsToken)) {
    throw new UsageError('Expected --metrics-token to be at least 16 printable characters without spaces.');
  }
  const allowedHosts = parseAllowedHosts(flags['allowed-hosts'] ?? env.RELAY_ALLOWED_HOSTS ?? '');
  const badHost = allowedHosts.find((entry) => !/^\.?[a-z0-9.:_-]+$/.test(entry));
  if (badHost !== undefined)
    throw new UsageError(
      `Expected --allowed-hosts to list host names such as relay.example.com or .example.com, got ${JSON.stringify(badHost)}.`,
    );
  return {
    host: flags.host ?? env.RELAY_HOST ?? '127.0.0.1',
    port,
    dataDir: path.resolve(flags['data-dir'] ?? env.RELAY_DATA_DIR ?? defaultRelayDataDir(env)),
    databaseUrl: databaseUrl || undefined,
    storageDir: storageDir ? path.resolve(storageDir) : undefined,
    s3,
    metricsToken: metricsToken || undefined,
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
