/**
 * The data directory's caches and what may be kept of each: waveform peaks, speech regions, shot changes, the audiobook's
 * paragraph audio, and the copies of damaged job store files. A `CachePruner` keeps them within their caps:
 * all of them when the server starts, and one after its cache was written, at most once per interval, so a
 * burst of writes costs one pass. Limits: defaults below, `SPEECH_STUDIO_CACHE_LIMITS` (JSON), server options.
 */
import path from 'node:path';
import { describeThrown, type Logger } from './log';
import { pruneCache, type CacheLimit, type PruneReport } from './prune-cache';

export type CacheName = 'waveforms' | 'speechRegions' | 'shotChanges' | 'audiobook' | 'damaged';
export type CacheLimits = Record<CacheName, CacheLimit>;
export type CacheLimitOverrides = Partial<Record<CacheName, Partial<CacheLimit>>>;

export const CACHE_LIMITS_ENV = 'SPEECH_STUDIO_CACHE_LIMITS';

export const DEFAULT_CACHE_LIMITS: Readonly<CacheLimits> = {
  // About 1.4 MB per hour of media at the timeline's resolution: some 180 hours.
  waveforms: { maxMegabytes: 256, maxDays: 90 },
  speechRegions: { maxMegabytes: 32, maxDays: 90 },
  // A few kilobytes per video: the times of its cuts.
  shotChanges: { maxMegabytes: 16, maxDays: 90 },
  // A re-export after an edit reads what did not change from here; a book of 10 hours is about 1.2 GB of WAV.
  audiobook: { maxMegabytes: 4096, maxDays: 30 },
  damaged: { maxMegabytes: 512, maxDays: 90 },
};

export const waveformsDir = (dataDir: string): string => path.join(dataDir, 'waveforms');
export const speechRegionsCacheDir = (dataDir: string): string => path.join(dataDir, 'cache', 'speech-regions');
export const shotChangesCacheDir = (dataDir: string): string => path.join(dataDir, 'cache', 'shot-changes');
export const audiobookCacheDir = (dataDir: string): string => path.join(dataDir, 'cache', 'audiobook');
/** The job store keeps a damaged snapshot or journal beside it as `<name>.damaged-<time>` (src/jobs/store.ts). */
const isDamagedCopy = (name: string): boolean => /\.damaged-\d+$/.test(name);

/** Where each cache lives, and which entries of that folder are its own. */
function cacheFolder(
  dataDir: string,
  name: CacheName,
): { dir: string; belongs?: (entry: string) => boolean; inProgress?: (entry: string) => boolean } {
  switch (name) {
    case 'waveforms':
      return { dir: waveformsDir(dataDir) };
    case 'speechRegions':
      return { dir: speechRegionsCacheDir(dataDir) };
    case 'shotChanges':
      return { dir: shotChangesCacheDir(dataDir) };
    case 'audiobook':
      return { dir: audiobookCacheDir(dataDir) };
    case 'damaged':
      return { dir: dataDir, belongs: isDamagedCopy, inProgress: () => false };
  }
}

const CACHE_NAMES = Object.keys(DEFAULT_CACHE_LIMITS) as CacheName[];

/**
 * The defaults with `overrides` applied; throws a TypeError naming what is wrong.
 * @example cacheLimits({ audiobook: { maxMegabytes: 1000 } }).audiobook // { maxMegabytes: 1000, maxDays: 30 }
 */
export function cacheLimits(overrides: CacheLimitOverrides = {}): CacheLimits {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    throw new TypeError(`Expected an object of cache limits, got ${JSON.stringify(overrides)}`);
  const limits = { ...DEFAULT_CACHE_LIMITS };
  for (const [name, override] of Object.entries(overrides)) {
    if (!CACHE_NAMES.includes(name as CacheName))
      throw new TypeError(`Expected a cache name (${CACHE_NAMES.join(', ')}), got ${JSON.stringify(name)}`);
    const merged = { ...limits[name as CacheName], ...override };
    for (const [key, value] of Object.entries(merged)) {
      if (key !== 'maxMegabytes' && key !== 'maxDays')
        throw new TypeError(`Expected maxMegabytes or maxDays for the ${name} cache, got ${JSON.stringify(key)}`);
      if (typeof value !== 'number' || !(value >= 0))
        throw new TypeError(`Expected a number of at least 0 for ${name}.${key}, got ${JSON.stringify(value)}`);
    }
    limits[name as CacheName] = merged;
  }
  return limits;
}

/** The limits from `SPEECH_STUDIO_CACHE_LIMITS` and then `overrides`; a broken variable is logged and left out. */
export function configuredCacheLimits(
  env: NodeJS.ProcessEnv,
  overrides: CacheLimitOverrides,
  log: Logger,
): CacheLimits {
  const raw = env[CACHE_LIMITS_ENV]?.trim();
  let fromEnv: CacheLimitOverrides = {};
  if (raw) {
    try {
      fromEnv = JSON.parse(raw) as CacheLimitOverrides;
      cacheLimits(fromEnv);
    } catch (error) {
      log.warn(`${CACHE_LIMITS_ENV} is not valid (${describeThrown(error)}); the default cache limits apply.`);
      fromEnv = {};
    }
  }
  const merged: CacheLimitOverrides = { ...fromEnv };
  for (const [name, override] of Object.entries(overrides))
    merged[name as CacheName] = { ...fromEnv[name as CacheName], ...override };
  return cacheLimits(merged);
}

export interface CachePrunerOptions {
  limits?: CacheLimits;
  log?: Logger;
  /** The least time between two passes over one cache after writes (default 10 minutes). */
  minIntervalMs?: number;
  now?: () => number;
}

export class CachePruner {
  private limits: CacheLimits;
  private log: Logger | undefined;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private readonly lastPass = new Map<CacheName, number>();
  private readonly running = new Map<CacheName, Promise<PruneReport>>();
  private readonly timers = new Map<CacheName, NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly dataDir: string,
    options: CachePrunerOptions = {},
  ) {
    this.limits = options.limits ?? { ...DEFAULT_CACHE_LIMITS };
    this.log = options.log;
    this.minIntervalMs = options.minIntervalMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
  }

  configure(limits: CacheLimits, log?: Logger): void {
    this.limits = limits;
    if (log) this.log = log;
  }

  /** One pass over every cache (at server start). */
  async pruneAll(): Promise<Record<CacheName, PruneReport>> {
    const reports = await Promise.all(CACHE_NAMES.map((name) => this.prune(name)));
    return Object.fromEntries(CACHE_NAMES.map((name, i) => [name, reports[i]])) as Record<CacheName, PruneReport>;
  }

  /** One pass over one cache now; joins a pass already running. */
  prune(name: CacheName): Promise<PruneReport> {
    const running = this.running.get(name);
    if (running) return running;
    this.lastPass.set(name, this.now());
    const { dir, ...folder } = cacheFolder(this.dataDir, name);
    const pass = pruneCache(dir, this.limits[name], { ...folder, now: this.now() })
      .then((report) => {
        if (report.removed.length > 0) {
          this.log?.info(
            `Cache ${name}: removed ${report.removed.length} unused entries (${(report.removedBytes / 1e6).toFixed(1)} MB); ${(report.keptBytes / 1e6).toFixed(1)} MB kept.`,
          );
        }
        return report;
      })
      .finally(() => this.running.delete(name));
    this.running.set(name, pass);
    return pass;
  }

  /** The cache `name` was written: a pass runs now if none ran within the interval, else once the interval is up. */
  noteWrite(name: CacheName): void {
    if (this.closed || this.timers.has(name)) return;
    const wait = (this.lastPass.get(name) ?? -Infinity) + this.minIntervalMs - this.now();
    if (wait <= 0) {
      this.prune(name).catch((error: unknown) =>
        this.log?.warn(`Cache ${name}: pruning failed: ${describeThrown(error)}`),
      );
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(name);
      this.noteWrite(name);
    }, wait);
    timer.unref();
    this.timers.set(name, timer);
  }

  /** Cancels scheduled passes and waits for running ones (before the data directory may go away). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running.values()]);
  }
}

const pruners = new Map<string, CachePruner>();

/**
 * The process's pruner for `dataDir`: the server sets its limits and log, the writers of each cache notify
 * it. Until a server configures it, `limits` apply (the engine's, from its configuration), else the defaults.
 */
export function cachePrunerFor(dataDir: string, limits?: CacheLimits): CachePruner {
  const key = path.resolve(dataDir);
  let pruner = pruners.get(key);
  if (!pruner) {
    pruner = new CachePruner(key, { limits: limits ?? cacheLimits() });
    pruners.set(key, pruner);
  }
  return pruner;
}

/** Stops the pruner of `dataDir` (waiting for a running pass) and forgets it: the next user gets a fresh one. */
export async function releaseCachePruner(dataDir: string): Promise<void> {
  const key = path.resolve(dataDir);
  const pruner = pruners.get(key);
  pruners.delete(key);
  await pruner?.close();
}
