import { describeThrown } from '../../util/log';
import { adjustStorage } from '../data/accounts';
import type { JobRow } from '../data/jobs';
import { CHANNELS, notify } from '../db/database';
import type { BlobStore } from '../storage/blob-store';
import { deviceLost, reroute, type PresenceDeps } from './presence';

const ABANDONED_UPLOAD_MS = 6 * 3600_000;

export interface SweeperDeps extends PresenceDeps {
  blobs: BlobStore;
  /** Finished jobs' files are deleted this long after the job ended. */
  retentionMs: number;
  intervalMs: number;
}

/**
 * The periodic work any instance may do, written so that several instances doing it at once is harmless
 * (SKIP LOCKED, conditional updates): devices silent past the limit go offline (their jobs handled as
 * for a dropped link), queued jobs stuck on an offline device move, old files and rate windows go.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: SweeperDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.deps.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; a pass still running is joined, not doubled. */
  sweep(): Promise<void> {
    this.running ??= this.pass()
      .catch((error) => this.deps.log.warn(`Relay sweep failed: ${describeThrown(error)}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const { db, offlineAfterMs } = this.deps;
    const now = Date.now();
    const silent = await db.query<{ id: string; session_id: string }>(
      'SELECT id, session_id FROM devices WHERE session_id IS NOT NULL AND last_seen_at < $1',
      [now - offlineAfterMs],
    );
    for (const device of silent) await deviceLost(this.deps, device.id, device.session_id);

    // Sent to a link that is no longer the device's: send again (to the device, or elsewhere if it is offline).
    await db.query(
      `UPDATE jobs j SET dispatched_session = NULL, dispatched_at = NULL FROM devices d
       WHERE j.device_id = d.id AND j.status = 'queued' AND j.dispatched_session IS NOT NULL
         AND d.session_id IS DISTINCT FROM j.dispatched_session AND j.dispatched_at < $1`,
      [now - 2_000],
    );
    // A wake-up lost on the way (a dropped LISTEN connection): the devices holding waiting jobs look again.
    const waiting = await db.query<{ device_id: string }>(
      `SELECT DISTINCT device_id FROM jobs WHERE status = 'queued' AND accepted AND dispatched_session IS NULL
         AND device_id IS NOT NULL AND created_at < $1`,
      [now - 1_000],
    );
    for (const row of waiting) await notify(db, CHANNELS.dispatch, row.device_id);

    await db.transaction(async (tx) => {
      const orphans = await tx.query<JobRow>(
        `SELECT j.* FROM jobs j JOIN devices d ON d.id = j.device_id
         WHERE j.status = 'queued' AND j.accepted AND NOT j.pinned AND (d.session_id IS NULL OR d.last_seen_at < $1 OR d.revoked_at IS NOT NULL)
         ORDER BY j.created_at LIMIT 100 FOR UPDATE OF j SKIP LOCKED`,
        [now - offlineAfterMs],
      );
      for (const job of orphans) await reroute(tx, job, offlineAfterMs, job.device_id);
    });

    await db.query('DELETE FROM rate_windows WHERE window_start < $1', [now - 120_000]);
    await this.dropAbandonedUploads(now);
    await this.expireFiles(now);
  }

  /** An upload whose instance died mid-way holds a concurrency place and storage: release them after 6 h. */
  private async dropAbandonedUploads(now: number): Promise<void> {
    const gone = await this.deps.db.query<{ account_id: number; storage_reserved_bytes: number }>(
      'DELETE FROM jobs WHERE NOT accepted AND created_at < $1 RETURNING account_id, storage_reserved_bytes',
      [now - ABANDONED_UPLOAD_MS],
    );
    for (const row of gone) await adjustStorage(this.deps.db, row.account_id, -row.storage_reserved_bytes);
  }

  /** Outputs past the retention period are deleted and stop counting against the storage quota. */
  private async expireFiles(now: number): Promise<void> {
    const expired = await this.deps.db.query<{ account_id: number; output_blob: string; output_bytes: number }>(
      `WITH old AS (
         SELECT id, account_id, output_blob, output_bytes FROM jobs
         WHERE output_blob IS NOT NULL AND finished_at < $1 ORDER BY finished_at LIMIT 200 FOR UPDATE SKIP LOCKED)
       UPDATE jobs j SET output_blob = NULL, output_bytes = 0 FROM old WHERE j.id = old.id
       RETURNING old.account_id, old.output_blob, old.output_bytes`,
      [now - this.deps.retentionMs],
    );
    for (const row of expired) {
      await this.deps.blobs.delete(row.output_blob).catch(() => undefined);
      await adjustStorage(this.deps.db, row.account_id, -row.output_bytes);
    }
  }
}
