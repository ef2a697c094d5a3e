/**
 * `<data-dir>/models/installed.json`: what was installed, when, and the sha256 of every file as it was
 * verified against the catalog or, where the catalog has no checksum, as it was recorded. Written to a
 * temporary file and renamed, one update at a time, so a crash never leaves half a manifest.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelKind } from './catalog';
import { ModelError } from './model-error';
import { manifestPath } from './model-paths';
import { writeFileAtomic } from '../util/atomic-write';

export interface InstalledFile {
  target: string;
  bytes: number;
  sha256: string;
  /** `verified`: matched the catalog's sha256. `recorded`: the catalog had none; this is what arrived. */
  checksum: 'verified' | 'recorded';
}

export interface InstalledModel {
  id: string;
  /** `custom-stt`: a whisper model the catalog does not know, imported by the user. */
  kind: ModelKind | 'custom-stt';
  source: 'download' | 'import' | 'adopted';
  installedAt: string;
  files: InstalledFile[];
}

export interface InstallManifest {
  version: 1;
  models: Record<string, InstalledModel>;
}

const pending = new Map<string, Promise<unknown>>();

export async function readManifest(dataDir: string): Promise<InstallManifest> {
  const file = manifestPath(dataDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, models: {} };
    throw error;
  }
  try {
    const manifest = JSON.parse(text) as InstallManifest;
    if (manifest?.version === 1 && typeof manifest.models === 'object' && manifest.models !== null) return manifest;
  } catch {
    // Reported below.
  }
  throw new ModelError('INVALID_MANIFEST', `${file} is damaged. Move it away and run "models verify" to rebuild it from the files on disk.`);
}

/** Applies `change` to the manifest and writes it atomically; updates to one data directory run in turn. */
export function updateManifest(dataDir: string, change: (manifest: InstallManifest) => void): Promise<InstallManifest> {
  const file = manifestPath(dataDir);
  const previous = pending.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(async () => {
    const manifest = await readManifest(dataDir);
    change(manifest);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  });
  pending.set(file, next);
  void next.finally(() => {
    if (pending.get(file) === next) pending.delete(file);
  }).catch(() => undefined);
  return next;
}

/** The ids installed in a data directory, for callers (the server) that only need to know what is there. */
export async function installedModelIds(dataDir: string): Promise<string[]> {
  return Object.keys((await readManifest(dataDir)).models).sort();
}
