/**
 * The model operations the CLI and the editor call: list, install, import, remove, verify. An install
 * downloads every file of an entry (and of what it requires) into `models/.partial/`, verifies each, and
 * only then renames them into place and records them in installed.json, so the server sees a model the
 * moment it is complete and never a half-written one.
 *
 * @example
 * const models = await createModelManager({ dataDir });
 * await models.install('whisper-base-q5_1', { onProgress: (p) => console.log(p.percent) });
 */
import { mkdir, mkdtemp, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { entryBytes, findEntry, installOrder, loadCatalog, type Catalog, type CatalogEntry } from './catalog';
import { discardPartial, downloadFile, keepsPartial, type FileProgress } from './download';
import { copyHashing } from './import-copy';
import type { NetworkOptions } from './http-get';
import { acquireInstallLock } from './install-lock';
import { readManifest, updateManifest, type InstalledModel } from './install-manifest';
import { ModelError } from './model-error';
import { applyMirror } from './mirror';
import { checkImported, customWhisperEntry, hasGgmlMagic, identifyImport, locateImportFiles, stageImport, type StagedFile } from './model-import';
import { modelsDir, partialPathFor, removeEmptyDirs, stagingDir, stagingRoot, targetPath } from './model-paths';
import { listModels, verifyModels, type ModelList, type VerifyReport } from './model-status';
import { noteFolderChange } from '../util/folder-changes';
import { SharedTask } from './shared-task';

export interface ModelManagerOptions extends NetworkOptions {
  dataDir: string;
  /** A catalog object or JSON file; the built-in catalog by default. */
  catalog?: Catalog | string;
  /** Base URL of a company mirror (the caller's flag or setting, over SPEECH_STUDIO_MODEL_MIRROR: src/config/server-environment.ts). */
  mirror?: string;
  retries?: number;
  retryDelayMs?: number;
  progressIntervalMs?: number;
  /** Free bytes where models are written; null when unknown. Replaceable in tests. */
  freeBytes?: (dir: string) => Promise<number | null>;
}

export interface InstallProgress extends Omit<FileProgress, 'phase'> {
  /** An import copies the user's file (and checks it as the bytes are written) where an install downloads. */
  phase: FileProgress['phase'] | 'copying';
  /** The catalog id; while an imported file is still being identified, its file name. */
  modelId: string;
  /** The file's target, relative to models/. */
  file: string;
  fileIndex: number;
  fileCount: number;
}

export interface InstallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: InstallProgress) => void;
}

/** An import is cancelled and followed like an install; a copy has no network options. */
export type ImportOptions = InstallOptions;

export interface InstallResult {
  id: string;
  alreadyInstalled: boolean;
  model: InstalledModel;
  /** Other entries installed first because this one requires them. */
  dependencies: InstallResult[];
}

export interface ModelManager {
  readonly catalog: Catalog;
  readonly dataDir: string;
  list(): Promise<ModelList>;
  install(id: string, options?: InstallOptions): Promise<InstallResult>;
  /** Installs a catalog entry from files the user has: a file, or a folder holding the entry's files. */
  importModel(id: string, source: string, options?: ImportOptions): Promise<InstallResult>;
  /** Installs a file the catalog knows (found by checksum or name), or else a custom whisper model. */
  importFile(file: string, options?: ImportOptions): Promise<InstallResult>;
  remove(id: string): Promise<{ id: string; removed: string[] }>;
  verify(options?: { signal?: AbortSignal; onFile?: (target: string) => void }): Promise<VerifyReport[]>;
  /** Called after every install and removal, so the server and the editor follow without a restart. */
  onDidChange(listener: (id: string) => void): () => void;
}

/** Installs in flight in this process, per data directory and id: a second install joins the first. */
const inFlight = new Map<string, SharedTask<InstallResult, InstallProgress>>();

async function statfsFreeBytes(dir: string): Promise<number | null> {
  return statfs(dir).then((s) => s.bavail * s.bsize, () => null);
}

export async function createModelManager(options: ModelManagerOptions): Promise<ModelManager> {
  if (!options?.dataDir) throw new TypeError(`Expected a dataDir, got ${JSON.stringify(options?.dataDir)}`);
  const dataDir = path.resolve(options.dataDir);
  const catalog = await loadCatalog(options.catalog);
  const mirror = options.mirror;
  const freeBytes = options.freeBytes ?? statfsFreeBytes;
  const { env, ca, maxRedirects, stallTimeoutMs, retries, retryDelayMs, progressIntervalMs } = options;
  const network = { env, ca, maxRedirects, stallTimeoutMs, retries, retryDelayMs, progressIntervalMs };
  const listeners = new Set<(id: string) => void>();
  const key = (id: string): string => `${dataDir}\0${id}`;
  const changed = (id: string): void => {
    noteFolderChange(modelsDir(dataDir));
    listeners.forEach((listener) => listener(id));
  };
  const context = { dataDir, catalog, isInstalling: (id: string) => inFlight.has(key(id)) };

  async function commit(entry: { id: string; kind: InstalledModel['kind'] }, staged: StagedFile[], source: InstalledModel['source']): Promise<InstalledModel> {
    const moved: string[] = [];
    try {
      for (const { file, partialPath } of staged) {
        const destination = targetPath(dataDir, file.target);
        await mkdir(path.dirname(destination), { recursive: true });
        await rename(partialPath, destination);
        moved.push(destination);
      }
    } catch (error) {
      await Promise.all(moved.map((file) => rm(file, { force: true })));
      throw error;
    }
    const model: InstalledModel = {
      id: entry.id,
      kind: entry.kind,
      source,
      installedAt: new Date().toISOString(),
      files: staged.map(({ file, sha256, bytes }) => ({ target: file.target, bytes, sha256, checksum: file.checksum === 'verify' ? 'verified' : 'recorded' })),
    };
    await updateManifest(dataDir, (manifest) => {
      manifest.models[entry.id] = model;
    });
    await cleanStaging(entry.id);
    changed(entry.id);
    return model;
  }

  async function cleanStaging(id: string): Promise<void> {
    await rm(stagingDir(dataDir, id), { recursive: true, force: true });
    await removeEmptyDirs(stagingRoot(dataDir), dataDir);
  }

  async function allPresent(entry: CatalogEntry): Promise<boolean> {
    const present = await Promise.all(entry.files.map((f) => stat(targetPath(dataDir, f.target)).then((s) => s.isFile(), () => false)));
    return present.every(Boolean);
  }

  async function stagedBytes(entry: CatalogEntry): Promise<number> {
    const sizes = await Promise.all(entry.files.map((f, i) => stat(partialPathFor(dataDir, entry.id, i, f.target)).then((s) => s.size, () => 0)));
    return sizes.reduce((sum, bytes) => sum + bytes, 0);
  }

  async function ensureSpace(entry: CatalogEntry): Promise<void> {
    await requireSpace(entry.id, (entryBytes(entry) ?? 0) - (await stagedBytes(entry)));
  }

  async function requireSpace(what: string, needed: number): Promise<void> {
    await mkdir(modelsDir(dataDir), { recursive: true });
    const free = await freeBytes(modelsDir(dataDir));
    if (free !== null && free < needed) {
      throw new ModelError('NO_SPACE', `Not enough free space for ${what} in ${modelsDir(dataDir)}: it needs ${formatMB(needed)}, ${formatMB(free)} are free.`);
    }
  }

  const sizeOf = (file: string): Promise<number> => stat(file).then((s) => s.size, () => 0);

  async function download(entry: CatalogEntry, signal: AbortSignal, emit: (p: InstallProgress) => void): Promise<InstallResult> {
    const existing = (await readManifest(dataDir)).models[entry.id];
    if (existing && (await allPresent(entry))) return { id: entry.id, alreadyInstalled: true, model: existing, dependencies: [] };
    const release = await acquireInstallLock(dataDir, entry.id);
    try {
      await ensureSpace(entry);
      const staged: StagedFile[] = [];
      for (const [index, file] of entry.files.entries()) {
        const partialPath = partialPathFor(dataDir, entry.id, index, file.target);
        await mkdir(path.dirname(partialPath), { recursive: true });
        const result = await downloadFile({
          ...network,
          url: applyMirror(file.url, mirror),
          partialPath,
          expectedSize: file.size,
          expectedSha256: file.checksum === 'verify' ? file.sha256 : null,
          signal,
          onProgress: (p) => emit({ ...p, modelId: entry.id, file: file.target, fileIndex: index, fileCount: entry.files.length }),
        });
        staged.push({ file, partialPath, sha256: result.sha256, bytes: result.bytes });
      }
      return { id: entry.id, alreadyInstalled: false, model: await commit(entry, staged, 'download'), dependencies: [] };
    } catch (error) {
      const kept = keepsPartial(error) ? await stagedBytes(entry) : 0;
      if (kept === 0) await rm(stagingDir(dataDir, entry.id), { recursive: true, force: true });
      else if (error instanceof ModelError) {
        error.message += ` The ${formatMB(kept)} downloaded so far are kept: install ${entry.id} again to resume, or remove it to delete them.`;
      }
      throw error;
    } finally {
      await release();
      await removeEmptyDirs(stagingRoot(dataDir), dataDir);
    }
  }

  function installEntry(entry: CatalogEntry, installOptions: InstallOptions): Promise<InstallResult> {
    let task = inFlight.get(key(entry.id));
    if (!task) {
      const started = new SharedTask<InstallResult, InstallProgress>((signal, emit) => download(entry, signal, emit));
      task = started;
      inFlight.set(key(entry.id), started);
      void started.promise.catch(() => undefined).finally(() => inFlight.delete(key(entry.id)));
    }
    return task.join(installOptions);
  }

  async function importStaged(entry: CatalogEntry, sources: string[], importOptions: ImportOptions): Promise<InstallResult> {
    const release = await acquireInstallLock(dataDir, entry.id);
    try {
      await requireSpace(entry.id, (await Promise.all(sources.map(sizeOf))).reduce((sum, bytes) => sum + bytes, 0));
      const staged = await stageImport(dataDir, entry, sources, {
        signal: importOptions.signal,
        progressIntervalMs: options.progressIntervalMs,
        onProgress: (fileIndex, p) =>
          importOptions.onProgress?.({ ...p, phase: 'copying', resumedFrom: 0, modelId: entry.id, file: entry.files[fileIndex].target, fileIndex, fileCount: entry.files.length }),
      });
      return { id: entry.id, alreadyInstalled: false, model: await commit(entry, staged, 'import'), dependencies: [] };
    } catch (error) {
      await rm(stagingDir(dataDir, entry.id), { recursive: true, force: true });
      throw error;
    } finally {
      await release();
      await removeEmptyDirs(stagingRoot(dataDir), dataDir);
    }
  }

  /**
   * One pass over the user's file: copied into a scratch folder and hashed on the way, then identified by that
   * hash (or its name), checked, and moved into the entry's staging folder to be installed like a download.
   */
  async function importAnyFile(source: string, importOptions: ImportOptions): Promise<InstallResult> {
    const name = path.basename(source);
    await requireSpace(name, await sizeOf(source));
    await mkdir(stagingRoot(dataDir), { recursive: true });
    const scratch = await mkdtemp(path.join(stagingRoot(dataDir), '.import-'));
    const copy = path.join(scratch, `${name}.partial`);
    try {
      const copied = await copyHashing(source, copy, {
        signal: importOptions.signal,
        progressIntervalMs: options.progressIntervalMs,
        onProgress: (p) => importOptions.onProgress?.({ ...p, phase: 'copying', resumedFrom: 0, modelId: name, file: name, fileIndex: 0, fileCount: 1 }),
      });
      const known = await identifyImport(catalog, source, copied.sha256);
      if (known) checkImported(known.files[0], source, copied);
      else if (!(await hasGgmlMagic(copy))) {
        throw new ModelError('IMPORT_FAILED', `${source} is neither a file from the catalog nor a whisper.cpp ggml model.`);
      }
      const entry = known ?? customWhisperEntry(source);
      const release = await acquireInstallLock(dataDir, entry.id);
      try {
        const partialPath = partialPathFor(dataDir, entry.id, 0, entry.files[0].target);
        await mkdir(path.dirname(partialPath), { recursive: true });
        await discardPartial(partialPath);
        await rename(copy, partialPath);
        const staged: StagedFile[] = [{ file: entry.files[0], partialPath, ...copied }];
        const model = await commit({ id: entry.id, kind: known ? entry.kind : 'custom-stt' }, staged, 'import');
        return { id: entry.id, alreadyInstalled: false, model, dependencies: [] };
      } catch (error) {
        await rm(stagingDir(dataDir, entry.id), { recursive: true, force: true });
        throw error;
      } finally {
        await release();
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
      await removeEmptyDirs(stagingRoot(dataDir), dataDir);
    }
  }

  return {
    catalog,
    dataDir,
    list: () => listModels(context),
    async install(id, installOptions = {}) {
      const order = installOrder(catalog, id);
      const entry = order.pop() as CatalogEntry;
      const dependencies: InstallResult[] = [];
      for (const dependency of order) dependencies.push(await installEntry(dependency, installOptions));
      return { ...(await installEntry(entry, installOptions)), dependencies };
    },
    async importModel(id, source, importOptions = {}) {
      const entry = findEntry(catalog, id);
      return importStaged(entry, await locateImportFiles(entry, path.resolve(source)), importOptions);
    },
    importFile: (userFile, importOptions = {}) => importAnyFile(path.resolve(userFile), importOptions),
    async remove(id) {
      inFlight.get(key(id))?.cancel();
      await inFlight.get(key(id))?.promise.catch(() => undefined);
      const installed = (await readManifest(dataDir)).models[id];
      const entry = catalog.models.find((e) => e.id === id);
      if (!installed && !entry) findEntry(catalog, id);
      const targets = new Set([...(installed?.files ?? []), ...(entry?.files ?? [])].map((f) => f.target));
      const removed: string[] = [];
      for (const target of targets) {
        const file = targetPath(dataDir, target);
        if (await rm(file).then(() => true, () => false)) removed.push(target);
        await removeEmptyDirs(path.dirname(file), modelsDir(dataDir));
      }
      await cleanStaging(id);
      if (installed) await updateManifest(dataDir, (manifest) => void delete manifest.models[id]);
      changed(id);
      return { id, removed };
    },
    verify: (verifyOptions = {}) => verifyModels(context, verifyOptions.signal, verifyOptions.onFile),
    onDidChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const formatMB = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
