import { describeThrown } from '../../util/log';
import { adjustStorage } from '../data/accounts';
import { silentDevices } from '../data/devices';
import {
  deleteAbandonedUploads,
  devicesWithUnsentJobs,
  expireOutputs,
  lockOrphanedJobs,
  unsendJobsOfStaleLinks,
} from '../data/job-dispatch';
import { dropRateWindows } from '../data/rate-windows';
import { dropSignInWindows, SIGN_IN_LIMITS } from '../data/sign-in-windows';
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
    for (const device of await silentDevices(db, now - offlineAfterMs))
      await deviceLost(this.deps, device.id, device.sessionId);

    // Sent to a link that is no longer the device's: send again (to the device, or elsewhere if it is offline).
    await unsendJobsOfStaleLinks(db, now - 2_000);
    // A wake-up lost on the way (a dropped LISTEN connection): the devices holding waiting jobs look again.
    for (const deviceId of await devicesWithUnsentJobs(db, now - 1_000)) await notify(db, CHANNELS.dispatch, deviceId);

    await db.transaction(async (tx) => {
      for (const job of await lockOrphanedJobs(tx, now - offlineAfterMs))
        await reroute(tx, job, offlineAfterMs, job.device_id);
    });

    await dropRateWindows(db, now - 120_000);
    await dropSignInWindows(db, now - 2 * SIGN_IN_LIMITS.windowMs);
    await this.dropAbandonedUploads(now);
    await this.expireFiles(now);
  }

  /** An upload whose instance died mid-way holds a concurrency place and storage: release them after 6 h. */
  private async dropAbandonedUploads(now: number): Promise<void> {
    for (const upload of await deleteAbandonedUploads(this.deps.db, now - ABANDONED_UPLOAD_MS)) {
      await adjustStorage(this.deps.db, upload.accountId, -upload.bytes);
    }
  }

  /** Outputs past the retention period are deleted and stop counting against the storage quota. */
  private async expireFiles(now: number): Promise<void> {
    for (const output of await expireOutputs(this.deps.db, now - this.deps.retentionMs)) {
      await this.deps.blobs.delete(output.blob).catch(() => undefined);
      await adjustStorage(this.deps.db, output.accountId, -output.bytes);
    }
  }
}
