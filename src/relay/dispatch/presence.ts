import type { Logger } from '../../util/log';
import type { DeviceCapabilities } from '../../link/capabilities';
import { keyPool } from '../data/api-keys';
import { clearSession, recordConnection } from '../data/devices';
import {
  jobsOfEndedLink,
  jobsSentOverOtherLinks,
  moveJobToLink,
  routeJob,
  unsendQueuedJob,
} from '../data/job-dispatch';
import { lockQueuedJob, type JobRow } from '../data/jobs';
import { CHANNELS, notify, type Database, type Queryable } from '../db/database';
import type { JobLifecycle } from './job-lifecycle';
import { workOf } from './finish-estimate';
import { needOf, pickDevice, poolDevices } from './routing';

const LOST_WHILE_RUNNING = 'The device running the job lost its connection to the relay; the job was interrupted.';

export interface PresenceDeps {
  db: Database;
  lifecycle: JobLifecycle;
  instanceId: string;
  offlineAfterMs: number;
  log: Logger;
}

/**
 * A queued job whose device is gone moves to another usable device of its key's pool, unless the caller
 * named the device (X-Studio-Device): then it waits for that device. Either way it is sent again.
 */
export async function reroute(
  tx: Queryable,
  job: JobRow,
  offlineAfterMs: number,
  exclude: string | null,
): Promise<string | null> {
  let target = job.device_id;
  if (!job.pinned) {
    const candidates = await poolDevices(tx, await keyPool(tx, job.key_id));
    const work = workOf({ ...job, characters: job.text?.length ?? 0 });
    const device = pickDevice(candidates, needOf(job), { offlineAfterMs }, new Set(exclude ? [exclude] : []), work);
    if (device) target = device.id;
  }
  await routeJob(tx, job.id, target);
  if (target) await notify(tx, CHANNELS.dispatch, target);
  return target;
}

/**
 * The device's link (session) ended. Jobs it was running become interrupted (docs/decisions.md); jobs it had
 * not started are sent to another device. Only jobs sent over that session are touched, so a newer
 * connection of the same device keeps its own.
 */
export async function deviceLost(deps: PresenceDeps, deviceId: string, sessionId: string): Promise<void> {
  const wasCurrent = await clearSession(deps.db, deviceId, sessionId);
  const jobs = await jobsOfEndedLink(deps.db, deviceId, sessionId, wasCurrent);
  for (const job of jobs) {
    if (job.status === 'queued') {
      await deps.db.transaction(async (tx) => {
        const fresh = await lockQueuedJob(tx, job.id);
        if (fresh) await reroute(tx, fresh, deps.offlineAfterMs, deviceId);
      });
    } else {
      await deps.lifecycle.update(job.id, { status: 'interrupted', error: LOST_WHILE_RUNNING }, { deviceId });
    }
  }
  if (jobs.length > 0)
    deps.log.info(
      `Device ${deviceId} left with ${jobs.length} active job(s); running ones interrupted, queued ones re-routed.`,
    );
}

/**
 * A device said hello on a new session. What it still runs (`activeJobs`) stays with it; anything else
 * that was sent to it before is interrupted (it had started) or sent again (it had not).
 */
export async function deviceConnected(
  deps: PresenceDeps,
  deviceId: string,
  sessionId: string,
  capabilities: DeviceCapabilities,
  activeJobs: readonly string[],
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await recordConnection(tx, deviceId, { sessionId, instanceId: deps.instanceId }, capabilities);
    await notify(tx, CHANNELS.presence, `${deviceId} ${sessionId}`);
  });
  const jobs = await jobsSentOverOtherLinks(deps.db, deviceId, sessionId);
  const kept = new Set(activeJobs);
  for (const job of jobs) {
    if (kept.has(job.id)) {
      await moveJobToLink(deps.db, job.id, sessionId);
    } else if (job.status === 'queued') {
      await unsendQueuedJob(deps.db, job.id);
    } else {
      await deps.lifecycle.update(job.id, { status: 'interrupted', error: LOST_WHILE_RUNNING }, { deviceId });
    }
  }
}
