import type { ApiKey } from '../data/api-keys';
import { poolTakes } from './device-labels';
import { speedsByDevice } from '../data/device-speeds';
import { isReady, liveDevices, type Device } from '../data/devices';
import { activeJobLoads, type JobRow } from '../data/jobs';
import type { Queryable } from '../db/database';
import { canRunStt, canRunTts, type DeviceCapabilities } from '../../link/capabilities';
import type { SpeedReport } from '../../link/speeds';
import { estimatedFinish, voiceEngines, workOf, type AheadJob, type Work } from './finish-estimate';

/** What a job needs of a device. */
export type Need = (capabilities: DeviceCapabilities) => boolean;

export interface Candidate {
  device: Device;
  /** Jobs waiting or running on it: the expected wait when its speed is not known. */
  active: number;
  /** Those jobs, for the estimate by speed. */
  ahead?: AheadJob[];
  /** The speeds it measured and reported; none from a device that does not measure. */
  speeds?: SpeedReport[];
}

/** Every unrevoked device of the pool, with its load and its measured speeds. */
export async function poolDevices(db: Queryable, key: Pick<ApiKey, 'accountId' | 'pool'>): Promise<Candidate[]> {
  const devices = await liveDevices(db, key.accountId);
  const loads = await activeJobLoads(db, key.accountId);
  const speeds = await speedsByDevice(db, key.accountId);
  return devices
    .filter((device) => poolTakes(key.pool, device))
    .map((device) => {
      const ahead = (loads.get(device.id) ?? []).map((job) => ({ work: workOf(job), progress: job.progress }));
      return { device, active: ahead.length, ahead, speeds: speeds.get(device.id) ?? [] };
    });
}

export interface Routing {
  offlineAfterMs: number;
  now?: number;
}

/**
 * Ready, not draining, and able. A device whose queue is full still qualifies: its jobs wait in the relay's queue and are
 * sent as it finishes others (device-session.ts), so "full" only lengthens its expected wait.
 */
export function usable(candidate: Candidate, need: Need, routing: Routing): boolean {
  const { device } = candidate;
  return (
    isReady(device, routing.now ?? Date.now(), routing.offlineAfterMs) &&
    !device.draining &&
    device.capabilities !== null &&
    need(device.capabilities)
  );
}

/** Each candidate's estimated finish for `work` (seconds from now), or undefined for those without figures. */
export function finishEstimates(
  candidates: readonly Candidate[],
  work: Work,
  pool: readonly Candidate[] = candidates,
): Array<number | undefined> {
  const engines = voiceEngines(pool.map((c) => c.speeds ?? []));
  return candidates.map((c) => estimatedFinish(c.speeds ?? [], c.ahead ?? [], work, engines));
}

const atRandom = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/**
 * The usable device that will finish the job first. With `work` and a measured speed on every usable
 * device: the earliest estimated finish (time left on the jobs ahead + this job's duration × the device's
 * real-time factor). Otherwise, as before devices measured: the fewest jobs ahead of this one (a device
 * runs one engine job at a time). Ties at random, so equal devices share the work.
 */
export function pickDevice(
  candidates: readonly Candidate[],
  need: Need,
  routing: Routing,
  exclude: ReadonlySet<string> = new Set(),
  work?: Work,
): Device | undefined {
  const able = candidates.filter((c) => !exclude.has(c.device.id) && usable(c, need, routing));
  if (able.length === 0) return undefined;
  const finishes = work ? finishEstimates(able, work, candidates) : [];
  if (work && finishes.every((f) => f !== undefined)) {
    const earliest = Math.min(...finishes);
    return atRandom(able.filter((_, i) => finishes[i] <= earliest + 1e-6)).device;
  }
  const fewest = Math.min(...able.map((c) => c.active));
  return atRandom(able.filter((c) => c.active === fewest)).device;
}

/** What the request stored for a job says it needs. */
export function needOf(job: Pick<JobRow, 'kind' | 'request'>): Need {
  if (job.kind === 'tts') {
    const voiceId = String(job.request.voiceId);
    return (caps) => canRunTts(caps, voiceId);
  }
  const { options, diarizationAsked } = job.request as { options: { language: string }; diarizationAsked: boolean };
  return (caps) => canRunStt(caps, options, diarizationAsked);
}
