/**
 * This process's own writes to a folder, counted, so a cache of what the folder holds can drop its copy at
 * once after the server itself changed it, without waiting for the file system to tell it.
 */
import path from 'node:path';

const counts = new Map<string, number>();

/** Says that this process has just changed what `dir` holds. */
export function noteFolderChange(dir: string): void {
  const key = path.resolve(dir);
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** How many changes to `dir` this process has noted; a different number means a cached reading is stale. */
export function folderChangeCount(dir: string): number {
  return counts.get(path.resolve(dir)) ?? 0;
}
