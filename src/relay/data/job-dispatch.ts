import type { Queryable } from '../db/database';
import { ACTIVE_SQL, type JobRow } from './jobs';

/**
 * The SQL of sending jobs to devices and of the periodic sweep: which link (session) a job was sent over,
 * moving jobs between devices, and the clean-up of abandoned uploads and expired files. Statements that
 * several instances may run at once lock with SKIP LOCKED or change rows only under a condition.
 */

/** Puts a job in the queue of `deviceId` (null: no device), to be sent again. */
export async function routeJob(tx: Queryable, id: string, deviceId: string | null): Promise<void> {
  await tx.query('UPDATE jobs SET device_id = $2, dispatched_session = NULL, dispatched_at = NULL WHERE id = $1', [
    id,
    deviceId,
  ]);
}

/**
 * Active jobs of a device's ended link: those sent over it, and, when it was the device's current link
 * (`wasCurrent`), those waiting for the device and not yet sent.
 */
export async function jobsOfEndedLink(
  db: Queryable,
  deviceId: string,
  sessionId: string,
  wasCurrent: boolean,
): Promise<JobRow[]> {
  return db.query<JobRow>(
    `SELECT * FROM jobs WHERE device_id = $1 AND status IN ${ACTIVE_SQL} AND (dispatched_session = $2 OR ($3 AND dispatched_session IS NULL))`,
    [deviceId, sessionId, wasCurrent],
  );
}

/** Active jobs of a device that were sent over a link other than `sessionId`. */
export async function jobsSentOverOtherLinks(db: Queryable, deviceId: string, sessionId: string): Promise<JobRow[]> {
  return db.query<JobRow>(
    `SELECT * FROM jobs WHERE device_id = $1 AND status IN ${ACTIVE_SQL} AND dispatched_session IS NOT NULL AND dispatched_session <> $2`,
    [deviceId, sessionId],
  );
}

/** The device still holds the job on its new link. */
export async function moveJobToLink(db: Queryable, id: string, sessionId: string): Promise<void> {
  await db.query('UPDATE jobs SET dispatched_session = $2 WHERE id = $1', [id, sessionId]);
}

/** A queued job that was sent but never started goes back to waiting to be sent. */
export async function unsendQueuedJob(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE jobs SET dispatched_session = NULL, dispatched_at = NULL WHERE id = $1 AND status = 'queued'`,
    [id],
  );
}

/** Queued jobs sent before `before` over a link that is no longer their device's go back to waiting. */
export async function unsendJobsOfStaleLinks(db: Queryable, before: number): Promise<void> {
  await db.query(
    `UPDATE jobs j SET dispatched_session = NULL, dispatched_at = NULL FROM devices d
     WHERE j.device_id = d.id AND j.status = 'queued' AND j.dispatched_session IS NOT NULL
       AND d.session_id IS DISTINCT FROM j.dispatched_session AND j.dispatched_at < $1`,
    [before],
  );
}

/** Devices with accepted jobs, created before `createdBefore`, waiting to be sent. */
export async function devicesWithUnsentJobs(db: Queryable, createdBefore: number): Promise<string[]> {
  const rows = await db.query<{ device_id: string }>(
    `SELECT DISTINCT device_id FROM jobs WHERE status = 'queued' AND accepted AND dispatched_session IS NULL
       AND device_id IS NOT NULL AND created_at < $1`,
    [createdBefore],
  );
  return rows.map((row) => row.device_id);
}

/**
 * Queued jobs, not pinned to their device, whose device is disconnected, silent since `silentSince` or
 * revoked, or not yet sent to a draining device; locked (rows another instance holds are skipped), oldest first.
 */
export async function lockOrphanedJobs(tx: Queryable, silentSince: number, limit = 100): Promise<JobRow[]> {
  return tx.query<JobRow>(
    `SELECT j.* FROM jobs j JOIN devices d ON d.id = j.device_id
     WHERE j.status = 'queued' AND j.accepted AND NOT j.pinned
       AND (d.session_id IS NULL OR d.last_seen_at < $1 OR d.revoked_at IS NOT NULL OR (d.draining AND j.dispatched_session IS NULL))
     ORDER BY j.created_at LIMIT $2 FOR UPDATE OF j SKIP LOCKED`,
    [silentSince, limit],
  );
}

/** Deletes uploads begun before `before` that never became jobs; returns the storage each held. */
export async function deleteAbandonedUploads(
  db: Queryable,
  before: number,
): Promise<Array<{ accountId: number; bytes: number }>> {
  const rows = await db.query<{ account_id: number; storage_reserved_bytes: number }>(
    'DELETE FROM jobs WHERE NOT accepted AND created_at < $1 RETURNING account_id, storage_reserved_bytes',
    [before],
  );
  return rows.map((row) => ({ accountId: row.account_id, bytes: row.storage_reserved_bytes }));
}

/** Forgets the outputs of jobs finished before `finishedBefore`; returns them, for the files and the quota. */
export async function expireOutputs(
  db: Queryable,
  finishedBefore: number,
  limit = 200,
): Promise<Array<{ accountId: number; blob: string; bytes: number }>> {
  const rows = await db.query<{ account_id: number; output_blob: string; output_bytes: number }>(
    `WITH old AS (
       SELECT id, account_id, output_blob, output_bytes FROM jobs
       WHERE output_blob IS NOT NULL AND finished_at < $1 ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE jobs j SET output_blob = NULL, output_bytes = 0 FROM old WHERE j.id = old.id
     RETURNING old.account_id, old.output_blob, old.output_bytes`,
    [finishedBefore, limit],
  );
  return rows.map((row) => ({ accountId: row.account_id, blob: row.output_blob, bytes: row.output_bytes }));
}
