import type { ApiKey } from '../data/api-keys';
import { keyAllowsDevice } from '../data/api-keys';
import { isReady, liveDevices, type Device } from '../data/devices';
import { activeJobsByDevice, type JobRow } from '../data/jobs';
import type { Queryable } from '../db/database';
import { canRunStt, canRunTts, type DeviceCapabilities } from '../../link/capabilities';

/** What a job needs of a device. */
export type Need = (capabilities: DeviceCapabilities) => boolean;

export interface Candidate {
  device: Device;
  /** Jobs waiting or running on it: the expected wait. */
  active: number;
}

/** Every unrevoked device of the pool, with its load. */
export async function poolDevices(db: Queryable, key: Pick<ApiKey, 'accountId' | 'pool'>): Promise<Candidate[]> {
  const devices = await liveDevices(db, key.accountId);
  const load = await activeJobsByDevice(db, key.accountId);
  return devices
    .filter((device) => keyAllowsDevice(key as ApiKey, device.id))
    .map((device) => ({ device, active: load.get(device.id) ?? 0 }));
}

export interface Routing {
  offlineAfterMs: number;
  now?: number;
}

/**
 * Ready and able. A device whose queue is full still qualifies: its jobs wait in the relay's queue and are
 * sent as it finishes others (device-session.ts), so "full" only lengthens its expected wait.
 */
export function usable(candidate: Candidate, need: Need, routing: Routing): boolean {
  const { device } = candidate;
  return isReady(device, routing.now ?? Date.now(), routing.offlineAfterMs) && device.capabilities !== null && need(device.capabilities);
}

/**
 * The usable device with the shortest expected wait: the fewest jobs ahead of this one (a device runs
 * one engine job at a time); ties at random, so equal devices share the work.
 */
export function pickDevice(candidates: readonly Candidate[], need: Need, routing: Routing, exclude: ReadonlySet<string> = new Set()): Device | undefined {
  const able = candidates.filter((c) => !exclude.has(c.device.id) && usable(c, need, routing));
  if (able.length === 0) return undefined;
  const fewest = Math.min(...able.map((c) => c.active));
  const best = able.filter((c) => c.active === fewest);
  return best[Math.floor(Math.random() * best.length)].device;
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
