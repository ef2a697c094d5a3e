/**
 * Copies a file the user has into a `.partial` file of the data folder, hashing the bytes as they are
 * written, so what is checked is exactly what will be installed. A copy, never a hard link: a link would let
 * a later edit or deletion of the user's file change the installed model, and it cannot cross file systems.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { diskFullError, ModelError } from './model-error';
import { throttledProgress, type TransferProgress } from './transfer-rate';

export interface CopyOptions {
  signal?: AbortSignal;
  /** Stop as soon as more bytes than this arrive: the file cannot be the catalog's. Null when unknown. */
  expectedSize?: number | null;
  onProgress?: (progress: TransferProgress) => void;
  progressIntervalMs?: number;
}

/** Thrown when the copy's signal aborts: the caller removes what was copied so far. */
export const importCancelled = (): ModelError => new ModelError('CANCELLED', 'The import was cancelled; nothing was installed.');

export interface CopyResult {
  sha256: string;
  bytes: number;
}

/** Streams `source` into `destination` (replacing it) and returns the sha256 and size of the bytes written. */
export async function copyHashing(source: string, destination: string, options: CopyOptions = {}): Promise<CopyResult> {
  const { signal, expectedSize = null } = options;
  if (signal?.aborted) throw importCancelled();
  const total = await sizeOf(source);
  const hash = createHash('sha256');
  const report = throttledProgress(options.onProgress, options.progressIntervalMs);
  const output = await open(destination, 'w').catch((error: unknown) => {
    throw writeError(error, destination);
  });
  let bytes = 0;
  try {
    report(0, total, true);
    for await (const chunk of createReadStream(source, { highWaterMark: 1 << 20 })) {
      if (signal?.aborted) throw importCancelled();
      const buffer = chunk as Buffer;
      bytes += buffer.length;
      if (expectedSize !== null && bytes > expectedSize) {
        throw new ModelError('SIZE_MISMATCH', `${source} is larger than the ${expectedSize} bytes the catalog lists: it is not that file. Nothing was installed.`);
      }
      await output.write(buffer).catch((error: unknown) => {
        throw writeError(error, destination);
      });
      hash.update(buffer);
      report(bytes, total);
    }
  } catch (error) {
    if (error instanceof ModelError) throw error;
    throw new ModelError('IMPORT_FAILED', `Could not read ${source}: ${(error as Error)?.message ?? String(error)}`);
  } finally {
    await output.close();
  }
  if (signal?.aborted) throw importCancelled();
  report(bytes, total, true);
  return { sha256: hash.digest('hex'), bytes };
}

async function sizeOf(source: string): Promise<number> {
  const handle = await open(source, 'r').catch(() => null);
  if (!handle) throw new ModelError('IMPORT_FAILED', `There is no readable file ${source}.`);
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

function writeError(error: unknown, destination: string): ModelError {
  return diskFullError(error, destination) ?? new ModelError('IMPORT_FAILED', `Could not write ${destination}: ${(error as Error)?.message ?? String(error)}`);
}
