/**
 * The audiobook's re-export cache in `<data-dir>/cache/audiobook/`: a paragraph's WAV under the hash of
 * everything that decides its sound (text, voice, options, the lexicon entries it contains), and a
 * chapter's encoded audio under the hash of its paragraphs. Re-exporting after an edit therefore reads and
 * encodes only what changed. After an export the cache is kept within its limits (src/util/data-dir-caches.ts:
 * by default 30 days unused, 4 GB).
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, utimes } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_CACHE_LIMITS } from '../util/data-dir-caches';
import { pruneCache, type CacheLimit } from '../util/prune-cache';

export { audiobookCacheDir } from '../util/data-dir-caches';

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

  /** Removes what `limit` says is too old or too much, least recently used first; returns how many entries went. */
  async prune(limit: CacheLimit = DEFAULT_CACHE_LIMITS.audiobook): Promise<number> {
    return (await pruneCache(this.dir, limit)).removed.length;
  }
}
