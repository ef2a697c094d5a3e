/**
 * Installing files the user already has (an offline machine, a USB stick, a company share): each file is
 * copied into the staging folder (hashed as it is written) and checked against the catalog exactly as a
 * download would be: its size, then its sha256. Only a file that passes is renamed into place.
 */
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog, CatalogEntry, CatalogFile } from './catalog';
import { discardPartial } from './download';
import { copyHashing, type CopyResult } from './import-copy';
import { ModelError } from './model-error';
import { partialPathFor, stagingDir } from './model-paths';
import type { TransferProgress } from './transfer-rate';

export interface StagedFile {
  file: CatalogFile;
  partialPath: string;
  sha256: string;
  bytes: number;
}

const upstreamName = (file: CatalogFile): string => decodeURIComponent(path.posix.basename(new URL(file.url).pathname));

async function isFile(file: string): Promise<boolean> {
  return stat(file).then((s) => s.isFile(), () => false);
}

/** The user's file for each of the entry's files: `source` itself, or files named as upstream names them. */
export async function locateImportFiles(entry: CatalogEntry, source: string): Promise<string[]> {
  const info = await stat(source).catch(() => null);
  if (!info) throw new ModelError('IMPORT_FAILED', `There is no file or folder ${source}.`);
  if (info.isFile()) {
    if (entry.files.length === 1) return [source];
    const names = entry.files.map(upstreamName).join(', ');
    throw new ModelError('IMPORT_FAILED', `${entry.id} has ${entry.files.length} files (${names}); pass the folder that holds them.`);
  }
  const found: string[] = [];
  const missing: string[] = [];
  for (const file of entry.files) {
    const candidates = [upstreamName(file), path.posix.basename(file.target)].map((name) => path.join(source, name));
    let match: string | undefined;
    for (const candidate of candidates) if (!match && (await isFile(candidate))) match = candidate;
    if (match) found.push(match);
    else missing.push(upstreamName(file));
  }
  if (missing.length > 0) throw new ModelError('IMPORT_FAILED', `${source} does not hold ${missing.join(', ')} for ${entry.id}.`);
  return found;
}

/** The single-file catalog entry a file is: by its sha256, else by its upstream file name. */
export async function identifyImport(catalog: Catalog, file: string, sha256: string): Promise<CatalogEntry | undefined> {
  const single = catalog.models.filter((entry) => entry.files.length === 1);
  return (
    single.find((entry) => entry.files[0].sha256 === sha256) ??
    single.find((entry) => upstreamName(entry.files[0]) === path.basename(file))
  );
}

export interface StageOptions {
  signal?: AbortSignal;
  /** Progress of the copy of the `fileIndex`th file. */
  onProgress?: (fileIndex: number, progress: TransferProgress) => void;
  progressIntervalMs?: number;
}

/** Copies `sources` into staging and checks them; on failure (or Cancel) nothing stays behind. */
export async function stageImport(dataDir: string, entry: CatalogEntry, sources: string[], options: StageOptions = {}): Promise<StagedFile[]> {
  const staged: StagedFile[] = [];
  try {
    for (const [index, file] of entry.files.entries()) {
      const partialPath = partialPathFor(dataDir, entry.id, index, file.target);
      staged.push({ file, partialPath, ...(await stageOne(sources[index], partialPath, file, index, options)) });
    }
    return staged;
  } catch (error) {
    await rm(stagingDir(dataDir, entry.id), { recursive: true, force: true });
    throw error;
  }
}

async function stageOne(source: string, partialPath: string, file: CatalogFile, index: number, options: StageOptions): Promise<CopyResult> {
  // A file of the wrong size is refused before a byte is copied.
  const size = await stat(source).then((s) => s.size, () => null);
  if (size !== null) checkSize(file, source, size);
  await mkdir(path.dirname(partialPath), { recursive: true });
  await discardPartial(partialPath);
  const copied = await copyHashing(source, partialPath, {
    signal: options.signal,
    expectedSize: file.size,
    progressIntervalMs: options.progressIntervalMs,
    onProgress: options.onProgress && ((progress) => options.onProgress?.(index, progress)),
  });
  checkImported(file, source, copied);
  return copied;
}

function checkSize(file: CatalogFile, source: string, bytes: number): void {
  if (file.size !== null && bytes !== file.size) {
    throw new ModelError('SIZE_MISMATCH', `${source} is ${bytes} bytes, but the catalog's ${upstreamName(file)} is ${file.size}: it is not that file. Nothing was installed.`);
  }
}

/** Refuses copied bytes that are not the catalog's file, as a download's check would. */
export function checkImported(file: CatalogFile, source: string, { sha256, bytes }: CopyResult): void {
  checkSize(file, source, bytes);
  if (file.checksum === 'verify' && sha256 !== file.sha256) {
    throw new ModelError(
      'CHECKSUM_MISMATCH',
      `${source} has sha256 ${sha256}, but the catalog's ${upstreamName(file)} has ${file.sha256}: it is a different or damaged file. Nothing was installed.`,
    );
  }
}

/** whisper.cpp model files start with the ggml magic 0x67676d6c, stored little-endian. */
export async function hasGgmlMagic(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.toString('latin1') === 'lmgg';
  } finally {
    await handle.close();
  }
}

/** A catalog-shaped entry for a whisper file the catalog does not know, installed as `custom:<name>`. */
export function customWhisperEntry(source: string): CatalogEntry {
  const name = path.basename(source);
  return {
    id: `custom:${name}`,
    kind: 'stt',
    name,
    languages: ['mul'],
    license: 'unknown',
    files: [{ url: `https://custom.invalid/${encodeURIComponent(name)}`, target: `whisper/${name}`, size: null, sha256: null, checksum: 'record-on-first-download', source }],
  };
}
