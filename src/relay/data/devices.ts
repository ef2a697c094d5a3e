import type { DeviceCapabilities } from '../../link/capabilities';
import type { Queryable } from '../db/database';
import { InvalidInputError } from './api-keys';
import { LABEL } from './label-format';
import { ACTIVE_SQL } from './jobs';
import { DEVICE_TOKEN_FORMAT, lookupOf, newSecret, publicId, secretMatches } from './secret-token';
import { hasNul, NUL_REFUSED } from './stored-text';

/** docs/decisions.md: a device silent for 30 s is offline. */
export const OFFLINE_AFTER_MS = 30_000;

export interface Device {
  id: string;
  accountId: number;
  name: string;
  createdAt: number;
  revokedAt: number | null;
  capabilities: DeviceCapabilities | null;
  sessionId: string | null;
  instanceId: string | null;
  connectedAt: number | null;
  lastSeenAt: number | null;
  /** Marked by an operator: takes no new job, finishes the ones it was sent. */
  draining: boolean;
  /** The operator's own labels (dispatch/device-labels.ts adds those its capabilities imply). */
  labels: string[];
}

export interface DeviceRow {
  id: string;
  account_id: number;
  name: string;
  token_lookup: string;
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
  capabilities: DeviceCapabilities | null;
  session_id: string | null;
  instance_id: string | null;
  connected_at: number | null;
  last_seen_at: number | null;
  draining: boolean;
  labels: string[];
}

export const toDevice = (row: DeviceRow): Device => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  capabilities: row.capabilities,
  sessionId: row.session_id,
  instanceId: row.instance_id,
  connectedAt: row.connected_at,
  lastSeenAt: row.last_seen_at,
  draining: row.draining,
  labels: row.labels,
});

/** Ready: connected and heart-beating within the offline limit. */
export const isReady = (device: Device, now = Date.now(), offlineAfterMs = OFFLINE_AFTER_MS): boolean =>
  device.revokedAt === null &&
  device.sessionId !== null &&
  device.lastSeenAt !== null &&
  now - device.lastSeenAt < offlineAfterMs;

/** Enrols a device: its token is returned here and never again. */
export async function enrolDevice(
  db: Queryable,
  accountId: number,
  name: string,
): Promise<{ device: Device; token: string }> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new InvalidInputError('name: must be 1 to 100 characters');
  if (hasNul(trimmed)) throw new InvalidInputError(`name: ${NUL_REFUSED}`);
  const secret = newSecret(DEVICE_TOKEN_FORMAT);
  const [row] = await db.query<DeviceRow>(
    'INSERT INTO devices (id, account_id, name, token_lookup, token_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
    [publicId('dev_', 16), accountId, trimmed, secret.lookup, secret.hash, Date.now()],
  );
  return { device: toDevice(row), token: secret.plaintext };
}

export async function listDevices(db: Queryable, accountId: number): Promise<Device[]> {
  const rows = await db.query<DeviceRow>('SELECT * FROM devices WHERE account_id = $1 ORDER BY created_at, id', [
    accountId,
  ]);
  return rows.map(toDevice);
}

/** The account's devices that are not revoked, connected or not. */
export async function liveDevices(db: Queryable, accountId: number): Promise<Device[]> {
  const rows = await db.query<DeviceRow>('SELECT * FROM devices WHERE account_id = $1 AND revoked_at IS NULL', [
    accountId,
  ]);
  return rows.map(toDevice);
}

export async function getDevice(db: Queryable, accountId: number, id: string): Promise<Device | undefined> {
  if (hasNul(id)) return undefined;
  const [row] = await db.query<DeviceRow>('SELECT * FROM devices WHERE account_id = $1 AND id = $2', [accountId, id]);
  return row && toDevice(row);
}

/** Revokes a device's token; its connection is closed by the instance holding it at the next heartbeat. */
export async function revokeDevice(db: Queryable, accountId: number, id: string): Promise<boolean> {
  if (hasNul(id)) return false;
  const rows = await db.query(
    'UPDATE devices SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id',
    [accountId, id, Date.now()],
  );
  return rows.length === 1;
}

/**
 * Drains (or puts back) an unrevoked device; false when there is none. Its jobs not yet sent move to other
 * devices at the sweeper's next round (data/job-dispatch.ts lockOrphanedJobs), those pinned to it wait.
 */
export async function setDraining(db: Queryable, accountId: number, id: string, draining: boolean): Promise<boolean> {
  if (hasNul(id)) return false;
  const rows = await db.query(
    'UPDATE devices SET draining = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id',
    [accountId, id, draining],
  );
  return rows.length === 1;
}

/** Replaces the operator's labels of an unrevoked device; false when there is none. */
export async function setDeviceLabels(
  db: Queryable,
  accountId: number,
  id: string,
  labels: string[],
): Promise<boolean> {
  const clean = [...new Set(labels.map((label) => label.trim().toLowerCase()).filter(Boolean))];
  const wrong = clean.find((label) => !LABEL.test(label));
  if (wrong !== undefined || clean.length > 50)
    throw new InvalidInputError(
      `labels: ${wrong !== undefined ? `${JSON.stringify(wrong.slice(0, 70))} is not a label: use a-z, 0-9 and .-_: (up to 63)` : 'at most 50'}`,
    );
  if (hasNul(id)) return false;
  const rows = await db.query(
    'UPDATE devices SET labels = $3::jsonb WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id',
    [accountId, id, JSON.stringify(clean)],
  );
  return rows.length === 1;
}

/** Jobs sent to each device and not finished: what a draining device still has to do. */
export async function sentJobsByDevice(db: Queryable, accountId: number): Promise<Map<string, number>> {
  const rows = await db.query<{ device_id: string; n: number }>(
    `SELECT device_id, count(*)::int AS n FROM jobs WHERE account_id = $1 AND device_id IS NOT NULL
       AND dispatched_session IS NOT NULL AND status IN ${ACTIVE_SQL} GROUP BY device_id`,
    [accountId],
  );
  return new Map(rows.map((row) => [row.device_id, row.n]));
}

/** A draining device is `draining` while jobs sent to it run, then `drained`: safe to stop or restart. */
export const drainState = (device: Pick<Device, 'draining'>, sentJobs: number): 'draining' | 'drained' | undefined =>
  device.draining ? (sentJobs > 0 ? 'draining' : 'drained') : undefined;

/** The enrolled, unrevoked device a token belongs to. */
export async function authenticateDevice(db: Queryable, token: string): Promise<Device | undefined> {
  const lookup = lookupOf(token, DEVICE_TOKEN_FORMAT);
  if (!lookup) return undefined;
  const rows = await db.query<DeviceRow>('SELECT * FROM devices WHERE token_lookup = $1', [lookup]);
  const row = rows.find((candidate) => secretMatches(token, candidate.token_hash));
  return row && row.revoked_at === null ? toDevice(row) : undefined;
}

/** A device said hello on a new link (session) held by `instanceId`: it is ready from now on. */
export async function recordConnection(
  tx: Queryable,
  deviceId: string,
  link: { sessionId: string; instanceId: string },
  capabilities: DeviceCapabilities,
  now = Date.now(),
): Promise<void> {
  await tx.query(
    'UPDATE devices SET session_id = $2, instance_id = $3, connected_at = $4, last_seen_at = $4, capabilities = $5::jsonb WHERE id = $1',
    [deviceId, link.sessionId, link.instanceId, now, JSON.stringify(capabilities)],
  );
}

/**
 * A heartbeat on link `sessionId` (with new capabilities, or null when unchanged). `current` is false when
 * that link is no longer the device's: `replaced` when a newer link is, else the device was found silent.
 */
export async function recordHeartbeat(
  db: Queryable,
  deviceId: string,
  sessionId: string,
  capabilities: DeviceCapabilities | null,
  now = Date.now(),
): Promise<{ current: boolean; replaced: boolean; revoked: boolean }> {
  const [row] = await db.query<{ revoked_at: number | null }>(
    `UPDATE devices SET last_seen_at = $3, capabilities = COALESCE($4::jsonb, capabilities)
     WHERE id = $1 AND session_id = $2 RETURNING revoked_at`,
    [deviceId, sessionId, now, capabilities ? JSON.stringify(capabilities) : null],
  );
  if (row) return { current: true, replaced: false, revoked: row.revoked_at !== null };
  const [latest] = await db.query<{ session_id: string | null; revoked_at: number | null }>(
    'SELECT session_id, revoked_at FROM devices WHERE id = $1',
    [deviceId],
  );
  return {
    current: false,
    replaced: latest?.session_id != null && latest.revoked_at === null,
    revoked: latest?.revoked_at != null,
  };
}

/** The device's link `sessionId` ended; true when it was still the device's current one. */
export async function clearSession(db: Queryable, deviceId: string, sessionId: string): Promise<boolean> {
  const rows = await db.query(
    'UPDATE devices SET session_id = NULL, instance_id = NULL WHERE id = $1 AND session_id = $2 RETURNING id',
    [deviceId, sessionId],
  );
  return rows.length === 1;
}

/** Devices with a link that has not been heard from since `before`. */
export async function silentDevices(db: Queryable, before: number): Promise<Array<{ id: string; sessionId: string }>> {
  const rows = await db.query<{ id: string; session_id: string }>(
    'SELECT id, session_id FROM devices WHERE session_id IS NOT NULL AND last_seen_at < $1',
    [before],
  );
  return rows.map((row) => ({ id: row.id, sessionId: row.session_id }));
}
