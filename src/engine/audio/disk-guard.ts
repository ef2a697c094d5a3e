/**
 * Keeps one job from filling the data disk: before a file of known size is written it checks there is
 * room for it, and while files grow it looks at the disk again every few megabytes. Either way a job stops
 * while a reserve is still free (for the job store and everything else on the machine), failing as a full
 * disk does: an error coded ENOSPC, which the engine turns into its disk-full sentence.
 */
import { statfs } from 'node:fs/promises';

/** Bytes written between two looks at the disk. */
export const CHECK_EVERY_BYTES = 4 * 1024 * 1024;
/** What a job leaves free: 64 MB, or 5 % of a small disk (a 16 MB test disk keeps 0.8 MB). */
const MAX_RESERVE_BYTES = 64 * 1024 * 1024;
const RESERVE_SHARE = 0.05;

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export interface DiskSpace {
  free: number;
  total: number;
}

/** Free (for this user) and total bytes of the disk holding `dir`; null where the platform cannot say. */
export async function diskSpace(dir: string): Promise<DiskSpace | null> {
  try {
    const stats = await statfs(dir);
    return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
  } catch {
    return null;
  }
}

export function reserveBytes(totalBytes: number): number {
  return Math.min(MAX_RESERVE_BYTES, Math.floor(totalBytes * RESERVE_SHARE));
}

export class DiskGuard {
  /** Starts due, so the first write looks at the disk before it happens. */
  private unchecked = CHECK_EVERY_BYTES;

  constructor(readonly dir: string) {}

  /** Fails (ENOSPC) unless `bytes` more fit on the disk with the reserve still free afterwards. */
  async ensureRoom(bytes: number, what = 'the audio'): Promise<void> {
    const space = await diskSpace(this.dir);
    if (!space) return;
    const reserve = reserveBytes(space.total);
    if (space.free - bytes >= reserve) return;
    const need = bytes > 0 ? `${what} needs about ${megabytes(bytes)}, ` : '';
    const error: NodeJS.ErrnoException = new Error(
      `ENOSPC: ${need}${megabytes(space.free)} are free and a job always leaves ${megabytes(reserve)} free`,
    );
    error.code = 'ENOSPC';
    throw error;
  }

  /**
   * Counts `bytes` about to be written. Every CHECK_EVERY_BYTES it makes sure the disk has room for that
   * much more, so the writes until the next look cannot eat into the reserve.
   */
  async beforeWrite(bytes: number): Promise<void> {
    this.unchecked += bytes;
    if (this.unchecked < CHECK_EVERY_BYTES) return;
    this.unchecked = 0;
    await this.ensureRoom(Math.max(bytes, CHECK_EVERY_BYTES));
  }
}
