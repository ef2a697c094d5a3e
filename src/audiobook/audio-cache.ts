/**
 * The audiobook's re-export cache in `<data-dir>/cache/audiobook/`: a paragraph's WAV under the hash of
 * everything that decides its sound (text, voice, options, the lexicon entries it contains), and a
 * chapter's encoded audio under the hash of its paragraphs. Re-exporting after an edit therefore reads and
 * encodes only what changed. Files unused for 30 days are removed after an export.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';

const UNUSED_DAYS = 30;

export const audiobookCacheDir = (dataDir: string): string => path.join(dataDir, 'cache', 'audiobook');

/** A stable hash of any JSON value (object keys in the order given: callers build their keys the same way). */
export const cacheKey = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

export class AudioCache {
  constructor(readonly dir: string) {}

  file(key: string, extension: string): string {
    return path.join(this.dir, `${key}.${extension}`);
  }

  /** The cached file, its use recorded (so pruning keeps it), or undefined. */
  async get(key: string, extension: string): Promise<string | undefined> {
    const file = this.file(key, extension);
    try {
      const now = new Date();
      await utimes(file, now, now);
      return file;
    } catch {
      return undefined;
    }
  }

  /** Moves a finished file (on the same disk) into the cache. */
  async put(key: string, extension: string, finished: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const file = this.file(key, extension);
    await rename(finished, file);
    return file;
  }

  /** Removes what no export used for 30 days. */
  async prune(now = Date.now()): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && now - info.mtimeMs > UNUSED_DAYS * 86_400_000) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
