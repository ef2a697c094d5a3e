/**
 * The stretches of speech of a local media file, found by the engine's speech-regions task (Silero VAD in
 * the engine process) and cached in the data directory by the file's path, size and modification time, so
 * asking again for an unchanged file costs nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { EnginePhase, SpeechRegionsResult, SpeechRegionsTask } from '../engine-api/protocol';
import { cachePrunerFor, speechRegionsCacheDir } from '../util/data-dir-caches';
import type { EngineHost } from './engine-host';
import { writeFileAtomic } from '../util/atomic-write';

export interface SpeechRegionsOptions {
  signal?: AbortSignal;
  onProgress?(phase: EnginePhase, progress: number): void;
}

export interface FoundSpeechRegions extends SpeechRegionsResult {
  /** True when the answer came from the cache, without running the engine. */
  cached: boolean;
}

/** What identifies one analysis: the file as it is now and the model that analysed it. */
interface CacheKey {
  path: string;
  size: number;
  mtimeMs: number;
  vadModel: string;
}

interface CacheEntry {
  key: CacheKey;
  result: SpeechRegionsResult;
}

export { speechRegionsCacheDir };

const cacheFile = (dataDir: string, mediaPath: string): string =>
  path.join(
    speechRegionsCacheDir(dataDir),
    `${createHash('sha256').update(mediaPath).digest('hex').slice(0, 32)}.json`,
  );

const sameKey = (a: CacheKey, b: CacheKey): boolean =>
  a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs && a.vadModel === b.vadModel;

async function readCached(file: string, key: CacheKey): Promise<SpeechRegionsResult | undefined> {
  try {
    const entry = JSON.parse(await readFile(file, 'utf8')) as CacheEntry;
    if (!sameKey(entry.key, key) || !Array.isArray(entry.result?.regions)) return undefined;
    // Its use recorded, so the cache's pruning keeps what is in use (src/util/prune-cache.ts).
    await utimes(file, new Date(), new Date()).catch(() => undefined);
    return entry.result;
  } catch {
    return undefined; // missing or damaged: analyse again
  }
}

/**
 * Speech onsets and offsets of `mediaPath` (absolute), from the cache when the file is unchanged, else
 * from the engine. Rejects with the engine's sentence when the file cannot be decoded.
 */
export async function findSpeechRegions(
  engine: Pick<EngineHost, 'run'>,
  dataDir: string,
  mediaPath: string,
  vadModelPath: string,
  options: SpeechRegionsOptions = {},
): Promise<FoundSpeechRegions> {
  const info = await stat(mediaPath);
  const key: CacheKey = {
    path: mediaPath,
    size: info.size,
    mtimeMs: info.mtimeMs,
    vadModel: path.basename(vadModelPath),
  };
  const file = cacheFile(dataDir, mediaPath);
  const cached = await readCached(file, key);
  if (cached) return { ...cached, cached: true };

  const task: SpeechRegionsTask = { kind: 'speech-regions', inputPath: mediaPath, vadModelPath };
  const { result } = await engine.run(`speech-regions-${randomUUID()}`, task, {
    signal: options.signal ?? new AbortController().signal,
    onProgress: (phase, progress) => options.onProgress?.(phase, progress),
  });
  await mkdir(path.dirname(file), { recursive: true });
  // Atomic: a reader never sees half an entry, and two servers filling one cache never share a temporary name.
  await writeFileAtomic(file, JSON.stringify({ key, result } satisfies CacheEntry));
  cachePrunerFor(dataDir).noteWrite('speechRegions');
  return { ...result, cached: false };
}
