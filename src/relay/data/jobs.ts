import type { JobResult } from '../../contract/types';
import type { JobKind, JobStatus, PublicJob } from '../../jobs/types';
import type { Queryable } from '../db/database';

export const ACTIVE_SQL = `('queued', 'loading_model', 'processing')`;

export interface JobRow {
  id: string;
  account_id: number;
  key_id: string;
  device_id: string | null;
  pinned: boolean;
  accepted: boolean;
  kind: JobKind;
  name: string;
  status: JobStatus;
  progress: number;
  phase: string | null;
  backend: string | null;
  result: JobResult | null;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  request: Record<string, unknown>;
  text: string | null;
  input_blob: string | null;
  input_name: string | null;
  input_bytes: number;
  output_blob: string | null;
  output_bytes: number;
  storage_reserved_bytes: number;
  credits_reserved_milli: number;
  credits_charged_milli: number | null;
  dispatched_session: string | null;
  dispatched_at: number | null;
  attempts: number;
  /** Only on a claimed job: the name of the key that created it, for the device to show. */
  key_name?: string | null;
}

export function toPublicJob(row: JobRow): PublicJob {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    status: row.status,
    progress: row.progress,
    phase: row.phase,
    backend: row.backend,
    result: row.result,
    error: row.error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export interface NewJobRow {
  id: string;
  accountId: number;
  keyId: string;
  deviceId: string | null;
  pinned: boolean;
  accepted: boolean;
  kind: JobKind;
  name: string;
  request: Record<string, unknown>;
  text?: string | null;
  creditsReservedMilli: number;
  storageReservedBytes: number;
}

export async function insertJob(tx: Queryable, job: NewJobRow): Promise<JobRow> {
  const [row] = await tx.query<JobRow>(
    `INSERT INTO jobs (id, account_id, key_id, device_id, pinned, accepted, kind, name, status, phase, created_at, request, text,
       credits_reserved_milli, storage_reserved_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', 'queued', $9, $10::jsonb, $11, $12, $13) RETURNING *`,
    [
      job.id,
      job.accountId,
      job.keyId,
      job.deviceId,
      job.pinned,
      job.accepted,
      job.kind,
      job.name,
      Date.now(),
      JSON.stringify(job.request),
      job.text ?? null,
      job.creditsReservedMilli,
      job.storageReservedBytes,
    ],
  );
  return row;
}

/** Jobs of a key that are waiting or running, including uploads still arriving (they hold a place). */
export async function countActiveJobs(tx: Queryable, keyId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE key_id = $1 AND status IN ${ACTIVE_SQL}`,
    [keyId],
  );
  return row.n;
}

/** A job the key created and whose creation finished; anything else is "not found" to that key. */
export async function findJobForKey(
  db: Queryable,
  keyId: string,
  id: string,
  forUpdate = false,
): Promise<JobRow | undefined> {
  const [row] = await db.query<JobRow>(
    `SELECT * FROM jobs WHERE id = $1 AND key_id = $2 AND accepted${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, keyId],
  );
  return row;
}

export async function lockJob(tx: Queryable, id: string): Promise<JobRow | undefined> {
  const [row] = await tx.query<JobRow>('SELECT * FROM jobs WHERE id = $1 FOR UPDATE', [id]);
  return row;
}

/** A queued job, locked; with `deviceId`, only when it waits for that device. */
export async function lockQueuedJob(tx: Queryable, id: string, deviceId?: string): Promise<JobRow | undefined> {
  const [row] =
    deviceId === undefined
      ? await tx.query<JobRow>(`SELECT * FROM jobs WHERE id = $1 AND status = 'queued' FOR UPDATE`, [id])
      : await tx.query<JobRow>(`SELECT * FROM jobs WHERE id = $1 AND device_id = $2 AND status = 'queued' FOR UPDATE`, [
          id,
          deviceId,
        ]);
  return row;
}

/** Writes the lifecycle's fields of a job (status, progress, result, timestamps, settlement). */
export async function saveJobState(tx: Queryable, job: JobRow): Promise<JobRow> {
  const [saved] = await tx.query<JobRow>(
    `UPDATE jobs SET status = $2, progress = $3, phase = $4, backend = $5, result = $6::jsonb, error = $7, started_at = $8,
       finished_at = $9, input_blob = $10, credits_charged_milli = $11
     WHERE id = $1 RETURNING *`,
    [
      job.id,
      job.status,
      job.progress,
      job.phase,
      job.backend,
      job.result === null ? null : JSON.stringify(job.result),
      job.error,
      job.started_at,
      job.finished_at,
      job.input_blob,
      job.credits_charged_milli,
    ],
  );
  return saved;
}

export interface AcceptedUpload {
  deviceId: string;
  pinned: boolean;
  /** The upload's file name: the job's name too. */
  name: string;
  request: Record<string, unknown>;
  inputBlob: string;
  inputBytes: number;
  creditsReservedMilli: number;
}

/** An STT job whose upload has arrived becomes visible and goes to its device. */
export async function acceptUpload(tx: Queryable, id: string, upload: AcceptedUpload): Promise<JobRow> {
  const [row] = await tx.query<JobRow>(
    `UPDATE jobs SET accepted = true, device_id = $2, pinned = $3, name = $4, request = $5::jsonb, input_blob = $6, input_name = $4,
       input_bytes = $7, storage_reserved_bytes = 0, credits_reserved_milli = $8, created_at = $9 WHERE id = $1 RETURNING *`,
    [
      id,
      upload.deviceId,
      upload.pinned,
      upload.name,
      JSON.stringify(upload.request),
      upload.inputBlob,
      upload.inputBytes,
      upload.creditsReservedMilli,
      Date.now(),
    ],
  );
  return row;
}

/** Removes a job whose creation failed before it was accepted; returns it (for its storage) or undefined. */
export async function dropUnacceptedJob(tx: Queryable, id: string): Promise<JobRow | undefined> {
  const [row] = await tx.query<JobRow>('DELETE FROM jobs WHERE id = $1 AND NOT accepted RETURNING *', [id]);
  return row;
}

/** A job that was sent to `deviceId` and is still waiting or running: the device may move its files. */
export async function findActiveJobForDevice(db: Queryable, id: string, deviceId: string): Promise<JobRow | undefined> {
  const [row] = await db.query<JobRow>(
    `SELECT * FROM jobs WHERE id = $1 AND device_id = $2 AND status IN ${ACTIVE_SQL}`,
    [id, deviceId],
  );
  return row;
}

/**
 * Records a job's output file, if the job is still active. Returns the bytes of the output it replaces (0
 * for none), or undefined when the job has ended.
 */
export async function storeJobOutput(
  tx: Queryable,
  id: string,
  blobKey: string,
  bytes: number,
): Promise<number | undefined> {
  const [current] = await tx.query<{ output_bytes: number }>(
    `SELECT output_bytes FROM jobs WHERE id = $1 AND status IN ${ACTIVE_SQL} FOR UPDATE`,
    [id],
  );
  if (!current) return undefined;
  await tx.query('UPDATE jobs SET output_blob = $2, output_bytes = $3 WHERE id = $1', [id, blobKey, bytes]);
  return current.output_bytes;
}

/**
 * Claims the next job waiting for `deviceId` that no connection has been sent yet (fair shares across keys,
 * below). SKIP LOCKED lets two instances (or two loops of one) claim side by side without ever claiming the
 * same job twice.
 */
/** How far back fair shares count the jobs each key was sent. */
export const FAIR_SHARE_WINDOW_MS = 10 * 60_000;

export async function claimNextJob(db: Queryable, deviceId: string, sessionId: string): Promise<JobRow | undefined> {
  // Fair shares: the waiting job of the key sent the fewest jobs lately, per unit of its weight, goes first
  // (then the oldest). Keys take turns, so one with a thousand queued jobs cannot starve one with a single job.
  const now = Date.now();
  const [row] = await db.query<JobRow>(
    `WITH served AS (SELECT key_id, count(*) AS n FROM jobs WHERE dispatched_at > $4 GROUP BY key_id)
     UPDATE jobs SET dispatched_session = $2, dispatched_at = $3, attempts = attempts + 1
     WHERE id = (SELECT j.id FROM jobs j LEFT JOIN api_keys k ON k.id = j.key_id LEFT JOIN served s ON s.key_id = j.key_id
                 WHERE j.device_id = $1 AND j.accepted AND j.status = 'queued' AND j.dispatched_session IS NULL
                   AND NOT (SELECT draining FROM devices WHERE devices.id = $1)
                 ORDER BY COALESCE(s.n, 0)::float8 / GREATEST(COALESCE(k.weight, 1), 1), j.created_at, j.id
                 FOR UPDATE OF j SKIP LOCKED LIMIT 1)
     RETURNING *, (SELECT name FROM api_keys WHERE api_keys.id = jobs.key_id) AS key_name`,
    [deviceId, sessionId, now, now - FAIR_SHARE_WINDOW_MS],
  );
  return row;
}

/** Active jobs per device, the relay's measure of each device's expected wait. */
export async function activeJobsByDevice(db: Queryable, accountId: number): Promise<Map<string, number>> {
  const rows = await db.query<{ device_id: string; n: number }>(
    `SELECT device_id, count(*)::int AS n FROM jobs WHERE account_id = $1 AND device_id IS NOT NULL AND status IN ${ACTIVE_SQL} GROUP BY device_id`,
    [accountId],
  );
  return new Map(rows.map((row) => [row.device_id, row.n]));
}

/** What routing needs to know of a job waiting or running on a device: its kind, its size and how far it got. */
export type ActiveJobLoad = Pick<
  JobRow,
  'id' | 'device_id' | 'kind' | 'status' | 'progress' | 'request' | 'input_bytes'
> & { characters: number };

/** The account's jobs waiting or running on a device, by device id. */
export async function activeJobLoads(db: Queryable, accountId: number): Promise<Map<string, ActiveJobLoad[]>> {
  const rows = await db.query<ActiveJobLoad & { device_id: string }>(
    `SELECT id, device_id, kind, status, progress, request, input_bytes, coalesce(length(text), 0)::int AS characters FROM jobs
     WHERE account_id = $1 AND device_id IS NOT NULL AND status IN ${ACTIVE_SQL}`,
    [accountId],
  );
  const byDevice = new Map<string, ActiveJobLoad[]>();
  for (const row of rows) byDevice.set(row.device_id, [...(byDevice.get(row.device_id) ?? []), row]);
  return byDevice;
}

export async function listRecentJobs(db: Queryable, accountId: number, limit = 50): Promise<JobRow[]> {
  return db.query<JobRow>('SELECT * FROM jobs WHERE account_id = $1 AND accepted ORDER BY created_at DESC LIMIT $2', [
    accountId,
    limit,
  ]);
}
