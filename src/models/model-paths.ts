/**
 * Where models live: `<data-dir>/models/<target>` for installed files, `<data-dir>/models/.partial/<id>/`
 * for downloads in progress. Partials stay out of whisper/ because the server treats every ggml file
 * there as an installed model; they stay inside models/ so the final rename never crosses file systems.
 */
import { rmdir } from 'node:fs/promises';
import path from 'node:path';

export const modelsDir = (dataDir: string): string => path.join(dataDir, 'models');
export const manifestPath = (dataDir: string): string => path.join(modelsDir(dataDir), 'installed.json');
export const stagingRoot = (dataDir: string): string => path.join(modelsDir(dataDir), '.partial');
export const stagingDir = (dataDir: string, id: string): string => path.join(stagingRoot(dataDir), id);

/** The installed path of a catalog target (forward slashes, relative to models/). */
export function targetPath(dataDir: string, target: string): string {
  const root = modelsDir(dataDir);
  const resolved = path.resolve(root, ...target.split('/'));
  if (!resolved.startsWith(root + path.sep)) throw new TypeError(`Expected a target inside models/, got ${target}`);
  return resolved;
}

export function partialPathFor(dataDir: string, id: string, index: number, target: string): string {
  return path.join(stagingDir(dataDir, id), `${index}-${path.posix.basename(target)}.partial`);
}

/** Removes `dir` and then its parents while they are empty, stopping at (and keeping) `stopAt`. */
export async function removeEmptyDirs(dir: string, stopAt: string): Promise<void> {
  let current = path.resolve(dir);
  const stop = path.resolve(stopAt);
  while (current.startsWith(stop + path.sep)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
