import { setDraining } from '../data/devices';
import { CHANNELS, notify, type Queryable } from '../db/database';

/**
 * Takes a device out of service (it finishes the jobs it was sent, takes no new one; the sweeper moves its
 * unsent jobs elsewhere) or puts it back, waking it to ask for work. The portal and the CLI both call this.
 */
export async function drainDevice(db: Queryable, accountId: number, id: string, draining: boolean): Promise<boolean> {
  const changed = await setDraining(db, accountId, id, draining);
  if (changed && !draining) await notify(db, CHANNELS.dispatch, id);
  return changed;
}
