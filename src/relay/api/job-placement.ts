import { ApiError } from '../../contract/errors';
import { lockApiKey, type ApiKey } from '../data/api-keys';
import { isReady } from '../data/devices';
import { countActiveJobs } from '../data/jobs';
import type { Queryable } from '../db/database';
import type { Work } from '../dispatch/finish-estimate';
import { pickDevice, poolDevices, type Need } from '../dispatch/routing';
import type { RelayDeps } from './deps';

export interface Placement {
  deviceId: string;
  /** Named by the caller: the job waits for this device rather than moving to another. */
  pinned: boolean;
}

const RETRY_AFTER = { 'Retry-After': '5' };

/**
 * Where a job goes (spec B, X-Studio-Device rules): the named device if it is in the key's pool (else 403
 * DEVICE_NOT_ALLOWED) and ready (else 503 DEVICE_OFFLINE); without a header the usable device that would
 * finish `work` first (dispatch/routing.ts; else 503 NO_CAPABLE_DEVICE).
 */
export async function placeJob(
  deps: RelayDeps,
  key: ApiKey,
  header: string,
  need: Need,
  what: string,
  work?: Work,
): Promise<Placement> {
  const candidates = await poolDevices(deps.db, key);
  const routing = { offlineAfterMs: deps.offlineAfterMs };
  const named = header.trim();
  if (named !== '') {
    // poolDevices holds only the devices the key's pool takes (by id, `*` or label).
    const candidate = candidates.find((c) => c.device.id === named);
    if (!candidate)
      throw new ApiError(
        'DEVICE_NOT_ALLOWED',
        `The device ${JSON.stringify(named.slice(0, 40))} is not in this key's device pool.`,
      );
    if (!isReady(candidate.device, Date.now(), deps.offlineAfterMs)) {
      throw new ApiError(
        'DEVICE_OFFLINE',
        `The device ${named} (${candidate.device.name}) is not connected to the relay.`,
        { headers: RETRY_AFTER },
      );
    }
    // Draining is the spec's "named device unavailable": the same code, a sentence saying why and for how long.
    if (candidate.device.draining) {
      throw new ApiError(
        'DEVICE_OFFLINE',
        `The device ${named} (${candidate.device.name}) is draining: an operator took it out of service; it takes no new jobs until it is put back.`,
        { headers: RETRY_AFTER },
      );
    }
    if (!candidate.device.capabilities || !need(candidate.device.capabilities)) {
      throw new ApiError('NO_CAPABLE_DEVICE', `The device ${named} (${candidate.device.name}) cannot run ${what}.`);
    }
    return { deviceId: named, pinned: true };
  }
  const device = pickDevice(candidates, need, routing, new Set(), work);
  if (!device) {
    const ready = candidates.filter((c) => isReady(c.device, Date.now(), deps.offlineAfterMs)).length;
    throw new ApiError(
      'NO_CAPABLE_DEVICE',
      ready === 0
        ? "No device of this key's pool is connected to the relay."
        : `None of the ${ready} ready device(s) of this key's pool can run ${what} now.`,
      { headers: RETRY_AFTER },
    );
  }
  return { deviceId: device.id, pinned: false };
}

/**
 * Takes one of the key's concurrent-job places, inside the creating transaction. The key's row is locked
 * first, so concurrent creations for one key (on any instance) count one after the other.
 */
export async function takeConcurrencySlot(tx: Queryable, key: ApiKey): Promise<void> {
  await lockApiKey(tx, key.id);
  const active = await countActiveJobs(tx, key.id);
  if (active >= key.maxConcurrentJobs) {
    throw new ApiError(
      'CONCURRENCY_LIMIT',
      `This key may have ${key.maxConcurrentJobs} jobs waiting or running at once; ${active} are.`,
      {
        headers: RETRY_AFTER,
        details: { maxConcurrentJobs: key.maxConcurrentJobs },
      },
    );
  }
}

export const insufficientCredits = (needed: number): ApiError =>
  new ApiError(
    'INSUFFICIENT_CREDITS',
    `The account's credit balance does not cover this job (about ${Math.ceil(needed / 1000)} credits).`,
  );

export const storageQuotaExceeded = (): ApiError =>
  new ApiError(
    'STORAGE_QUOTA_EXCEEDED',
    "The account's storage quota has no room for this job's files; wait for old files to expire or raise the quota.",
  );
