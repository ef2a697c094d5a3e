import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { compileValidators } from '../contract/validation';
import { createHttpServer } from '../http/listen';
import type { RequestTimeouts } from '../http/slow-requests';
import { MAX_UPLOAD_BYTES } from '../http/upload/receive-upload';
import type { Logger } from '../util/log';
import { createRelayApp, RELAY_PREFIX } from './api/app';
import { DEFAULT_ACCOUNT, ensureAccount, type AccountDefaults } from './data/accounts';
import { OFFLINE_AFTER_MS } from './data/devices';
import { ensureAdminUser } from './data/users';
import type { Database } from './db/database';
import { openDatabase } from './db/open-database';
import { attachGateway } from './dispatch/gateway';
import { JobLifecycle } from './dispatch/job-lifecycle';
import { Sweeper } from './dispatch/sweeper';
import type { BlobStore } from './storage/blob-store';
import { FolderBlobStore } from './storage/folder-store';
import type { S3StoreConfig } from './storage/s3-location';

export interface RelayOptions {
  host: string;
  port: number;
  /** PGlite's files (without a database URL) and, by default, the storage folder. */
  dataDir: string;
  databaseUrl?: string;
  /** Uploads and outputs; every instance of one relay must share it. Default `<dataDir>/storage`. */
  storageDir?: string;
  /** Uploads and outputs in an S3-compatible bucket (every instance the same one) instead of a folder. */
  s3?: S3StoreConfig;
  /** Serves GET /metrics (Prometheus text) to this bearer token; undefined: no /metrics. */
  metricsToken?: string;
  log: Logger;
  offlineAfterMs?: number;
  heartbeatMs?: number;
  sweepIntervalMs?: number;
  /** How long finished jobs' files are kept (default 24 h). */
  retentionMs?: number;
  maxUploadBytes?: number;
  /** The portal admin's password on first start; default: generated and returned once. */
  adminPassword?: string;
  account?: AccountDefaults;
  secureCookies?: boolean;
  trustProxy?: boolean;
  /** Slow-client limits; by default the Local API's, with idle connections kept for 2 minutes. */
  timeouts?: Partial<RequestTimeouts>;
  /** Host names the relay answers to (see api/allowed-hosts.ts); default: any. */
  allowedHosts?: string[];
}

export interface Relay {
  /** `http://host:port/v1` */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly instanceId: string;
  readonly db: Database;
  readonly accountId: number;
  /** Set on the first start when the admin password was generated: show it once. */
  readonly generatedAdminPassword?: string;
  /** Stops accepting; links close (their running jobs interrupted, queued ones re-routed); the database closes. */
  close(): Promise<void>;
}

/** The folder, or the bucket once it is known to exist and accept the credentials (the SDK loads only then). */
async function openBlobStore(options: RelayOptions): Promise<{ blobs: BlobStore; close(): void }> {
  if (!options.s3)
    return {
      blobs: new FolderBlobStore(options.storageDir ?? path.join(options.dataDir, 'storage')),
      close: () => undefined,
    };
  const { openS3BlobStore } = await import('./storage/s3-store');
  const store = await openS3BlobStore(options.s3);
  return { blobs: store, close: () => store.close() };
}

export async function startRelay(options: RelayOptions): Promise<Relay> {
  const { log } = options;
  const offlineAfterMs = options.offlineAfterMs ?? OFFLINE_AFTER_MS;
  const instanceId = randomUUID();
  const storage = await openBlobStore(options);
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, log }).catch(
    (error: unknown) => {
      storage.close();
      throw error;
    },
  );
  try {
    const account = await ensureAccount(db, options.account ?? DEFAULT_ACCOUNT);
    const generatedAdminPassword = await ensureAdminUser(db, account.id, options.adminPassword);
    const { blobs } = storage;
    const lifecycle = new JobLifecycle(db, blobs, log);
    const app = createRelayApp({
      db,
      blobs,
      lifecycle,
      log,
      validators: compileValidators(),
      accountId: account.id,
      offlineAfterMs,
      maxUploadBytes: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
      secureCookies: options.secureCookies ?? false,
      trustProxy: options.trustProxy ?? false,
      allowedHosts: options.allowedHosts,
      metricsToken: options.metricsToken,
      instanceId,
    });

    const http = createHttpServer({
      handle: app.callback(),
      timeouts: { idleMs: 120_000, ...options.timeouts },
      requireHost: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'OPTIONS'],
    });
    const presence = { db, lifecycle, instanceId, offlineAfterMs, log };
    const gateway = await attachGateway(http.server, {
      ...presence,
      heartbeatMs: options.heartbeatMs ?? 10_000,
      allowedHosts: options.allowedHosts,
    });
    const sweeper = new Sweeper({
      ...presence,
      blobs,
      retentionMs: options.retentionMs ?? 24 * 3600_000,
      intervalMs: options.sweepIntervalMs ?? Math.max(250, Math.min(5_000, offlineAfterMs / 3)),
    });

    const port = await http.listen(options.port, options.host);
    sweeper.start();
    void sweeper.sweep();
    const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
    const origin = `http://${shownHost}:${port}`;

    let closing: Promise<void> | undefined;
    return {
      url: `${origin}${RELAY_PREFIX}`,
      origin,
      port,
      instanceId,
      db,
      accountId: account.id,
      generatedAdminPassword,
      close: () =>
        (closing ??= (async () => {
          await http.close(async () => {
            await gateway.close();
            await sweeper.stop();
          });
          await db.close();
          storage.close();
        })()),
    };
  } catch (error) {
    await db.close();
    storage.close();
    throw error;
  }
}
