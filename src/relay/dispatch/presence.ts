import type { Logger } from '../../util/log';
import type { DeviceCapabilities } from '../../link/capabilities';
import { ACTIVE_SQL, type JobRow } from '../data/jobs';
import { CHANNELS, notify, type Database, type Queryable } from '../db/database';
import type { JobLifecycle } from './job-lifecycle';
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
export async function reroute(tx: Queryable, job: JobRow, offlineAfterMs: number, exclude: string | null): Promise<string | null> {
  let target = job.device_id;
  if (!job.pinned) {
    const [key] = await tx.query<{ account_id: number; pool: string[] }>('SELECT account_id, pool FROM api_keys WHERE id = $1', [job.key_id]);
    const candidates = await poolDevices(tx, { accountId: key.account_id, pool: key.pool });
    const device = pickDevice(candidates, needOf(job), { offlineAfterMs }, new Set(exclude ? [exclude] : []));
    if (device) target = device.id;
  }
  await tx.query('UPDATE jobs SET device_id = $2, dispatched_session = NULL, dispatched_at = NULL WHERE id = $1', [job.id, target]);
  if (target) await notify(tx, CHANNELS.dispatch, target);
  return target;
}

/**
 * The device's link (session) ended. Jobs it was running become interrupted (docs/decisions.md); jobs it had
 * not started are sent to another device. Only jobs sent over that session are touched, so a newer
 * connection of the same device keeps its own.
 */
export async function deviceLost(deps: PresenceDeps, deviceId: string, sessionId: string): Promise<void> {
  const cleared = await deps.db.query(
    'UPDATE devices SET session_id = NULL, instance_id = NULL WHERE id = $1 AND session_id = $2 RETURNING id',
    [deviceId, sessionId],
  );
  const jobs = await deps.db.query<JobRow>(
    `SELECT * FROM jobs WHERE device_id = $1 AND status IN ${ACTIVE_SQL} AND (dispatched_session = $2 OR ($3 AND dispatched_session IS NULL))`,
    [deviceId, sessionId, cleared.length === 1],
  );
  for (const job of jobs) {
    if (job.status === 'queued') {
      await deps.db.transaction(async (tx) => {
        const [fresh] = await tx.query<JobRow>(`SELECT * FROM jobs WHERE id = $1 AND status = 'queued' FOR UPDATE`, [job.id]);
        if (fresh) await reroute(tx, fresh, deps.offlineAfterMs, deviceId);
      });
    } else {
      await deps.lifecycle.update(job.id, { status: 'interrupted', error: LOST_WHILE_RUNNING }, { deviceId });
    }
  }
  if (jobs.length > 0) deps.log.info(`Device ${deviceId} left with ${jobs.length} active job(s); running ones interrupted, queued ones re-routed.`);
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
  const now = Date.now();
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `UPDATE devices SET session_id = $2, instance_id = $3, connected_at = $4, last_seen_at = $4, capabilities = $5::jsonb WHERE id = $1`,
      [deviceId, sessionId, deps.instanceId, now, JSON.stringify(capabilities)],
    );
    await notify(tx, CHANNELS.presence, `${deviceId} ${sessionId}`);
  });
  const jobs = await deps.db.query<JobRow>(
    `SELECT * FROM jobs WHERE device_id = $1 AND status IN ${ACTIVE_SQL} AND dispatched_session IS NOT NULL AND dispatched_session <> $2`,
    [deviceId, sessionId],
  );
  const kept = new Set(activeJobs);
  for (const job of jobs) {
    if (kept.has(job.id)) {
      await deps.db.query('UPDATE jobs SET dispatched_session = $2 WHERE id = $1', [job.id, sessionId]);
    } else if (job.status === 'queued') {
      await deps.db.query(`UPDATE jobs SET dispatched_session = NULL, dispatched_at = NULL WHERE id = $1 AND status = 'queued'`, [job.id]);
    } else {
      await deps.lifecycle.update(job.id, { status: 'interrupted', error: LOST_WHILE_RUNNING }, { deviceId });
    }
  }
}
