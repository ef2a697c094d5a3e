/**
 * The shot changes of a local video, found by the engine's shot-changes task (ffmpeg's scene score in the
 * engine process) and cached in the data directory by the file's path, size and modification time and the
 * threshold, so asking again for an unchanged file costs nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { EnginePhase, ShotChangesResult, ShotChangesTask } from '../engine-api/protocol';
import { writeFileAtomic } from '../util/atomic-write';
import { cachePrunerFor, shotChangesCacheDir } from '../util/data-dir-caches';
import type { EngineHost } from './engine-host';

export interface ShotChangesOptions {
  signal?: AbortSignal;
  onProgress?(phase: EnginePhase, progress: number): void;
}

export interface FoundShotChanges extends ShotChangesResult {
  /** True when the answer came from the cache, without running the engine. */
  cached: boolean;
}

/** What identifies one analysis: the file as it is now and the score a cut must exceed. */
interface CacheKey {
  path: string;
  size: number;
  mtimeMs: number;
  threshold: number;
}

interface CacheEntry {
  key: CacheKey;
  result: ShotChangesResult;
}

export { shotChangesCacheDir };

const cacheFile = (dataDir: string, key: CacheKey): string =>
  path.join(
    shotChangesCacheDir(dataDir),
    `${createHash('sha256').update(`${key.path}\0${key.threshold}`).digest('hex').slice(0, 32)}.json`,
  );

const sameKey = (a: CacheKey, b: CacheKey): boolean =>
  a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs && a.threshold === b.threshold;

async function readCached(file: string, key: CacheKey): Promise<ShotChangesResult | undefined> {
  try {
    const entry = JSON.parse(await readFile(file, 'utf8')) as CacheEntry;
    if (!sameKey(entry.key, key) || !Array.isArray(entry.result?.changes)) return undefined;
    // Its use recorded, so the cache's pruning keeps what is in use (src/util/prune-cache.ts).
    await utimes(file, new Date(), new Date()).catch(() => undefined);
    return entry.result;
  } catch {
    return undefined; // missing or damaged: analyse again
  }
}

/**
 * The shot changes of `mediaPath` (absolute) at scene score `threshold`, from the cache when the file is
 * unchanged, else from the engine. Rejects with the engine's sentence when the file has no video.
 */
export async function findShotChanges(
  engine: Pick<EngineHost, 'run'>,
  dataDir: string,
  mediaPath: string,
  threshold: number,
  options: ShotChangesOptions = {},
): Promise<FoundShotChanges> {
  const info = await stat(mediaPath);
  const key: CacheKey = { path: mediaPath, size: info.size, mtimeMs: info.mtimeMs, threshold };
  const file = cacheFile(dataDir, key);
  const cached = await readCached(file, key);
  if (cached) return { ...cached, cached: true };

  const task: ShotChangesTask = { kind: 'shot-changes', mediaPath, threshold };
  const { result } = await engine.run(`shot-changes-${randomUUID()}`, task, {
    signal: options.signal ?? new AbortController().signal,
    onProgress: (phase, progress) => options.onProgress?.(phase, progress),
  });
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify({ key, result } satisfies CacheEntry));
  cachePrunerFor(dataDir).noteWrite('shotChanges');
  return { ...result, cached: false };
}
