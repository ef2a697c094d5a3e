import type { Context } from 'koa';
import type { JobRow } from '../data/jobs';

/**
 * The spec's request header that names a device; the relay answers with the same header, naming the device a
 * job was sent to (and ran on, once it ran), on every response about that one job. Headers only: no body changes.
 */
export const DEVICE_HEADER = 'X-Studio-Device';

export function nameJobDevice(ctx: Context, job: Pick<JobRow, 'device_id'>): void {
  if (job.device_id) ctx.set(DEVICE_HEADER, job.device_id);
}
