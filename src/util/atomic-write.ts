/**
 * The one way the server replaces a file it rewrites (the lexicon, the API key, manifests, caches, the job
 * store's snapshot): the new content goes to a temporary file with a name no other write shares, is flushed
 * to disk, and is renamed over the target; writes to one file run one after another, in the order issued.
 * A reader sees the old file or the new one, never half of one, and no temporary file outlives its write.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

const queues = new Map<string, Promise<void>>();

export interface AtomicWriteOptions {
  /** The new file's permissions (e.g. 0o600 for a secret); the default is 0o666 less the umask. */
  mode?: number;
}

/** Replaces `file` whole with `data`; resolves once the new content is on disk under the file's name. */
export function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const key = path.resolve(file);
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => replace(key, data, options));
  queues.set(key, next);
  void next
    .catch(() => undefined)
    .finally(() => {
      if (queues.get(key) === next) queues.delete(key);
    });
  return next;
}

async function replace(file: string, data: string | Uint8Array, options: AtomicWriteOptions): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temporary, 'wx', options.mode ?? 0o666);
    try {
      await handle.writeFile(data);
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(path.dirname(file));
}

/** Makes the rename itself durable; some file systems cannot sync a folder, and the rename stands anyway. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every file system lets a folder be opened or synced; the file's own content is already on disk.
  }
}
