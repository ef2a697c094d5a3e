/**
 * What is installed, and whether it is still intact: `list` reads the manifest and the disk; `verify`
 * re-hashes every installed file against what was verified or recorded at install time, and adopts
 * catalog files someone copied into place by hand once their checksums match.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog, CatalogEntry } from './catalog';
import { sha256File } from './file-hash';
import { readManifest, updateManifest, type InstalledModel } from './install-manifest';
import { listSttModels, type InstalledSttModel } from './installed-models';
import { modelsDir, stagingDir, targetPath } from './model-paths';

export type ModelStatus = 'installed' | 'installing' | 'partial' | 'incomplete' | 'unverified' | 'not-installed';

export interface ModelListing {
  entry: CatalogEntry;
  /** `partial`: an interrupted download waits to be resumed; `incomplete`: installed files went missing;
   * `unverified`: the files are in place but were not installed by Speech Studio (run verify). */
  status: ModelStatus;
  installed?: InstalledModel;
  partialBytes: number;
}

export interface ModelList {
  models: ModelListing[];
  /**
   * Speech-to-text files the catalog does not know, usable as custom models: ggml files in models/whisper/
   * and Parakeet files in models/parakeet/, each with its engine as read from the file.
   */
  customStt: InstalledSttModel[];
}

export interface FileCheck {
  target: string;
  status: 'ok' | 'missing' | 'mismatch';
  expected: string;
  actual?: string;
}

export interface VerifyReport {
  id: string;
  /** `adopted`: files found in place matched the catalog and are now recorded as installed. */
  status: 'ok' | 'damaged' | 'adopted';
  files: FileCheck[];
}

export interface StatusContext {
  dataDir: string;
  catalog: Catalog;
  isInstalling(id: string): boolean;
}

const exists = (file: string): Promise<boolean> => stat(file).then((s) => s.isFile(), () => false);

async function partialBytes(dataDir: string, id: string): Promise<number> {
  const dir = stagingDir(dataDir, id);
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(names.filter((n) => n.endsWith('.partial')).map((n) => stat(`${dir}/${n}`).then((s) => s.size, () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

export async function listModels(context: StatusContext): Promise<ModelList> {
  const { dataDir, catalog } = context;
  const manifest = await readManifest(dataDir);
  const models = await Promise.all(
    catalog.models.map(async (entry): Promise<ModelListing> => {
      const installed = manifest.models[entry.id];
      const present = await Promise.all(entry.files.map((file) => exists(targetPath(dataDir, file.target))));
      const partial = await partialBytes(dataDir, entry.id);
      const allPresent = present.every(Boolean);
      const status: ModelStatus = context.isInstalling(entry.id)
        ? 'installing'
        : installed
          ? allPresent ? 'installed' : 'incomplete'
          : partial > 0 ? 'partial' : allPresent ? 'unverified' : 'not-installed';
      return { entry, status, installed, partialBytes: partial };
    }),
  );
  const catalogTargets = new Set(catalog.models.flatMap((entry) => entry.files.map((file) => file.target)));
  const targetOf = (model: InstalledSttModel): string => path.relative(modelsDir(dataDir), model.path).split(path.sep).join('/');
  const customStt = (await listSttModels(dataDir)).filter((model) => !catalogTargets.has(targetOf(model)));
  return { models, customStt };
}

export async function verifyModels(context: StatusContext, signal?: AbortSignal, onFile?: (target: string) => void): Promise<VerifyReport[]> {
  const { dataDir, catalog } = context;
  const manifest = await readManifest(dataDir);
  const reports: VerifyReport[] = [];
  for (const installed of Object.values(manifest.models)) {
    const entry = catalog.models.find((e) => e.id === installed.id);
    const files: FileCheck[] = [];
    for (const file of installed.files) {
      onFile?.(file.target);
      const catalogFile = entry?.files.find((f) => f.target === file.target);
      const expected = catalogFile?.checksum === 'verify' && catalogFile.sha256 ? catalogFile.sha256 : file.sha256;
      files.push(await checkFile(dataDir, file.target, expected, signal));
    }
    reports.push({ id: installed.id, status: files.every((f) => f.status === 'ok') ? 'ok' : 'damaged', files });
  }
  for (const entry of catalog.models) {
    if (manifest.models[entry.id] || !entry.files.every((f) => f.checksum === 'verify')) continue;
    if (!(await Promise.all(entry.files.map((f) => exists(targetPath(dataDir, f.target))))).every(Boolean)) continue;
    const files: FileCheck[] = [];
    for (const file of entry.files) {
      onFile?.(file.target);
      files.push(await checkFile(dataDir, file.target, file.sha256 ?? '', signal));
    }
    const matches = files.every((f) => f.status === 'ok');
    if (matches) await adopt(dataDir, entry, files);
    reports.push({ id: entry.id, status: matches ? 'adopted' : 'damaged', files });
  }
  return reports;
}

async function checkFile(dataDir: string, target: string, expected: string, signal?: AbortSignal): Promise<FileCheck> {
  const file = targetPath(dataDir, target);
  if (!(await exists(file))) return { target, status: 'missing', expected };
  const { sha256 } = await sha256File(file, signal);
  return { target, status: sha256 === expected ? 'ok' : 'mismatch', expected, actual: sha256 };
}

async function adopt(dataDir: string, entry: CatalogEntry, files: FileCheck[]): Promise<void> {
  const sizes = await Promise.all(files.map((f) => stat(targetPath(dataDir, f.target)).then((s) => s.size)));
  await updateManifest(dataDir, (manifest) => {
    manifest.models[entry.id] = {
      id: entry.id,
      kind: entry.kind,
      source: 'adopted',
      installedAt: new Date().toISOString(),
      files: files.map((f, i) => ({ target: f.target, bytes: sizes[i], sha256: f.expected, checksum: 'verified' })),
    };
  });
}
