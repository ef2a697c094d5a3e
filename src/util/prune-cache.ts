/**
 * Keeps one cache folder within a size and age cap: entries unused longer than the age cap go first, then
 * the least recently used ones until the folder fits. "Used" is the modification time, which the caches'
 * readers refresh on every hit. An entry used in the last few minutes, or a folder where a writer is still
 * at work (a fresh `.partial` file, an export's scratch folder), is never touched: it may be in use by this
 * or another process (the engine, the audiobook CLI), and a cache that is briefly over its cap costs nothing.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

export interface CacheLimit {
  /** The folder's size cap, in megabytes (10^6 bytes). */
  maxMegabytes: number;
  /** Entries unused for longer than this are removed, whatever the folder's size. */
  maxDays: number;
}

export interface PruneOptions {
  /** Which entries of the folder belong to the cache (default: all). */
  belongs?: (name: string) => boolean;
  /** Entries a writer is still making (default: `.partial` files and dot-folders such as an export's scratch). */
  inProgress?: (name: string) => boolean;
  now?: number;
  /** Entries used more recently than this count as in use (default 10 minutes). */
  recentMs?: number;
  /** An in-progress entry older than this was left by a writer that died, and is removed (default 1 day). */
  staleMs?: number;
}

export interface PruneReport {
  removed: string[];
  removedBytes: number;
  keptBytes: number;
  /** A writer was at work in the folder, so nothing but what it left long ago was removed. */
  busy: boolean;
}

const DAY_MS = 86_400_000;
export const RECENT_USE_MS = 10 * 60_000;
const defaultInProgress = (name: string): boolean => name.endsWith('.partial') || name.startsWith('.');

interface Entry {
  file: string;
  bytes: number;
  usedAt: number;
}

/** Removes what `limit` says is too old or too much from `dir` (top-level entries; a missing folder is empty). */
export async function pruneCache(dir: string, limit: CacheLimit, options: PruneOptions = {}): Promise<PruneReport> {
  const now = options.now ?? Date.now();
  const recentMs = options.recentMs ?? RECENT_USE_MS;
  const staleMs = options.staleMs ?? DAY_MS;
  const belongs = options.belongs ?? (() => true);
  const inProgress = options.inProgress ?? defaultInProgress;
  const report: PruneReport = { removed: [], removedBytes: 0, keptBytes: 0, busy: false };
  const names = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);

  const candidates: Entry[] = [];
  for (const dirent of names) {
    if (!belongs(dirent.name)) continue;
    const entry = await measure(path.join(dir, dirent.name));
    if (!entry) continue;
    const age = now - entry.usedAt;
    if (inProgress(dirent.name)) {
      if (age > staleMs) await remove(entry, report);
      else report.busy = true;
      continue;
    }
    candidates.push(entry);
  }
  candidates.sort((a, b) => a.usedAt - b.usedAt);
  let total = candidates.reduce((sum, entry) => sum + entry.bytes, 0);
  const cap = limit.maxMegabytes * 1e6;
  for (const entry of candidates) {
    const age = now - entry.usedAt;
    const removable = !report.busy && age >= recentMs && (age > limit.maxDays * DAY_MS || total > cap);
    if (removable && (await remove(entry, report))) total -= entry.bytes;
  }
  report.keptBytes = total;
  return report;
}

/** An entry's size (a folder's: all it holds) and last use; undefined when it vanished meanwhile. */
async function measure(file: string): Promise<Entry | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (!info) return undefined;
  if (!info.isDirectory()) return { file, bytes: info.size, usedAt: info.mtimeMs };
  let bytes = 0;
  let usedAt = info.mtimeMs;
  const inside = await readdir(file).catch(() => [] as string[]);
  for (const name of inside) {
    const child = await measure(path.join(file, name));
    if (!child) continue;
    bytes += child.bytes;
    usedAt = Math.max(usedAt, child.usedAt);
  }
  return { file, bytes, usedAt };
}

async function remove(entry: Entry, report: PruneReport): Promise<boolean> {
  try {
    await rm(entry.file, { recursive: true, force: true });
  } catch {
    return false; // another process holds it (Windows) or removed it first: leave it to the next pass
  }
  report.removed.push(entry.file);
  report.removedBytes += entry.bytes;
  return true;
}
