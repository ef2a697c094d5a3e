import type { Validators } from '../../contract/validation';
import type { Logger } from '../../util/log';
import type { ApiKey } from '../data/api-keys';
import type { Device } from '../data/devices';
import type { Database } from '../db/database';
import type { JobLifecycle } from '../dispatch/job-lifecycle';
import type { BlobStore } from '../storage/blob-store';

/** Everything the relay's Koa app needs; `createRelayApp` builds routes from these and never listens. */
export interface RelayDeps {
  db: Database;
  blobs: BlobStore;
  lifecycle: JobLifecycle;
  validators: Validators;
  log: Logger;
  /** The account the portal administers. */
  accountId: number;
  offlineAfterMs: number;
  maxUploadBytes: number;
  /** Cookies get `Secure` when the request came over HTTPS, or always when this is true. */
  secureCookies: boolean;
  /** Trust X-Forwarded-Proto/For from a load balancer in front. */
  trustProxy: boolean;
  /** Host names the relay answers to (see allowed-hosts.ts); undefined or empty: any. */
  allowedHosts?: readonly string[];
  /** Serves GET /metrics to this bearer token; undefined: no /metrics. */
  metricsToken?: string;
  /** This process, among the instances sharing the database (for the per-instance metrics). */
  instanceId?: string;
}

/** What the auth middlewares leave for the handlers. */
export interface RelayState {
  key?: ApiKey;
  device?: Device;
}

export const requireKey = (state: RelayState): ApiKey => {
  if (!state.key) throw new Error('The key middleware did not run before this handler.');
  return state.key;
};
