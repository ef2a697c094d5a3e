/**
 * Downloads one file into a `.partial` file with progress, resumes with an HTTP Range request after the
 * connection drops (here, in a retry, or in a later run), and hashes the bytes as they arrive so the
 * sha256 is checked the moment the last byte lands. It never installs anything: the caller renames the
 * verified `.partial` into place.
 */
import { createHash } from 'node:crypto';
import { open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { hashInto } from './file-hash';
import { networkError, openResponse, type NetworkOptions } from './http-get';
import { ModelError, cancelledError, diskFullError, isResumable } from './model-error';
import { throttledProgress, type TransferProgress } from './transfer-rate';

export interface FileProgress extends TransferProgress {
  phase: 'downloading' | 'verifying';
  /** Bytes that were already on disk from an earlier, interrupted download. */
  resumedFrom: number;
}

export interface DownloadOptions extends NetworkOptions {
  url: string;
  partialPath: string;
  expectedSize: number | null;
  /** Null when the catalog has no checksum to compare (the hash is still computed and returned). */
  expectedSha256: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: FileProgress) => void;
  /** Further attempts after a dropped connection or a gateway error; each resumes where the last stopped. */
  retries?: number;
  /** Wait before the first retry; it doubles each time. */
  retryDelayMs?: number;
  progressIntervalMs?: number;
}

export interface DownloadResult {
  sha256: string;
  bytes: number;
  resumedFrom: number;
}

interface PartialMeta {
  url: string;
  etag?: string;
  lastModified?: string;
  complete?: { bytes: number; sha256: string };
}

const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

const sidecarPath = (partialPath: string): string => `${partialPath}.json`;

/** Deletes a partial download and its resume information. */
export async function discardPartial(partialPath: string): Promise<void> {
  await rm(partialPath, { force: true });
  await rm(sidecarPath(partialPath), { force: true });
}

/** Failures after which the bytes on disk are still worth resuming from. */
export const keepsPartial = (error: unknown): boolean =>
  isResumable(error) || (error instanceof ModelError && RETRYABLE_STATUSES.has(error.details.status ?? 0));

export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const retries = options.retries ?? 4;
  let delay = options.retryDelayMs ?? 1000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptDownload(options);
    } catch (error) {
      const failure = error instanceof ModelError ? error : networkError(error, new URL(options.url), options.signal);
      const retryable = failure.code === 'NETWORK' || RETRYABLE_STATUSES.has(failure.details.status ?? 0);
      if (retryable && attempt < retries && !options.signal?.aborted) {
        await wait(delay, options.signal);
        delay *= 2;
        continue;
      }
      if (!keepsPartial(failure)) await discardPartial(options.partialPath);
      throw failure;
    }
  }
}

async function attemptDownload(o: DownloadOptions): Promise<DownloadResult> {
  if (o.signal?.aborted) throw cancelledError();
  let offset = await resumableBytes(o);
  const finished = offset > 0 ? (await readMeta(o.partialPath))?.complete : undefined;
  const knownSize = o.expectedSize ?? finished?.bytes ?? null;
  if (knownSize !== null && offset >= knownSize) {
    // A previous run got every byte (then stopped, or a sibling file failed): what is there may be complete.
    if (offset === knownSize) {
      const expected = { ...o, expectedSha256: o.expectedSha256 ?? finished?.sha256 ?? null };
      const complete = await finish(expected, createHash('sha256'), offset, offset, true).catch((error: unknown) => {
        if (error instanceof ModelError && error.code === 'CHECKSUM_MISMATCH') return null;
        throw error;
      });
      if (complete) return complete;
    }
    await discardPartial(o.partialPath);
    offset = 0;
  }
  const headers: Record<string, string> = {};
  if (offset > 0) {
    headers.Range = `bytes=${offset}-`;
    const meta = await readMeta(o.partialPath);
    const validator = meta?.etag && !meta.etag.startsWith('W/') ? meta.etag : meta?.lastModified;
    if (validator) headers['If-Range'] = validator;
  }
  const { response, url } = await openResponse(o.url, headers, o.signal, o);
  const { start, total } = await acceptedRange(response, offset, o);
  await writeFile(sidecarPath(o.partialPath), JSON.stringify({ url: o.url, etag: response.headers.etag, lastModified: response.headers['last-modified'] }));

  const hash = createHash('sha256');
  if (start > 0) await hashInto(hash, o.partialPath, o.signal);
  const report = reporter(o, start);
  const handle = await open(o.partialPath, start > 0 ? 'a' : 'w');
  let bytes = start;
  try {
    report(bytes, total, true);
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (o.signal?.aborted) throw cancelledError();
      bytes += chunk.length;
      if (o.expectedSize !== null && bytes > o.expectedSize) {
        throw new ModelError('SIZE_MISMATCH', `${url.host} sent more than the ${o.expectedSize} bytes the catalog lists for ${o.url}.`);
      }
      await handle.write(chunk);
      hash.update(chunk);
      report(bytes, total);
    }
  } catch (error) {
    throw writeOrNetworkError(error, url, o);
  } finally {
    await handle.close();
  }
  if (o.signal?.aborted) throw cancelledError();
  if (total !== null && bytes < total) {
    throw new ModelError('NETWORK', `The connection to ${url.host} closed after ${bytes} of ${total} bytes.`, { url: url.href });
  }
  report(bytes, total, true, 'verifying');
  return finish(o, hash, start, bytes, false);
}

/** Checks how the server answered a (possibly ranged) request; returns where the body starts. */
async function acceptedRange(response: IncomingMessage, offset: number, o: DownloadOptions): Promise<{ start: number; total: number | null }> {
  if (response.statusCode === 416) {
    response.resume();
    await discardPartial(o.partialPath);
    throw new ModelError('NETWORK', `The server could not resume ${o.url}; starting again from zero.`);
  }
  let start = 0;
  let total: number | null;
  if (response.statusCode === 206) {
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers['content-range'] ?? '');
    if (!range || Number(range[1]) !== offset) {
      response.destroy();
      await discardPartial(o.partialPath);
      throw new ModelError('NETWORK', `The server resumed ${o.url} at the wrong place; starting again from zero.`);
    }
    start = offset;
    total = range[2] === '*' ? null : Number(range[2]);
  } else {
    // 200: the server ignores Range, or the file changed since the partial was written (If-Range).
    const length = Number(response.headers['content-length']);
    total = Number.isSafeInteger(length) && response.headers['content-length'] !== undefined ? length : null;
  }
  if (o.expectedSize !== null && total !== null && total !== o.expectedSize) {
    response.destroy();
    throw new ModelError(
      'SIZE_MISMATCH',
      `${o.url} is ${total} bytes but the catalog lists ${o.expectedSize}: the server sends a different file. Nothing was installed.`,
    );
  }
  return { start, total: total ?? o.expectedSize };
}

async function finish(o: DownloadOptions, hash: ReturnType<typeof createHash>, start: number, bytes: number, hashWholeFile: boolean): Promise<DownloadResult> {
  if (hashWholeFile) await hashInto(hash, o.partialPath, o.signal);
  const sha256 = hash.digest('hex');
  if (o.expectedSha256 !== null && sha256 !== o.expectedSha256) {
    throw new ModelError(
      'CHECKSUM_MISMATCH',
      `The file downloaded from ${o.url} has sha256 ${sha256}, but the catalog expects ${o.expectedSha256}. ` +
        'It was corrupted on the way or the server sent a different file; nothing was installed.',
    );
  }
  // Remembered so a later run that finds this finished file (a sibling failed) re-checks it instead of fetching it again.
  const meta = (await readMeta(o.partialPath)) ?? { url: o.url };
  await writeFile(sidecarPath(o.partialPath), JSON.stringify({ ...meta, complete: { bytes, sha256 } }));
  return { sha256, bytes, resumedFrom: start };
}

/** Bytes of an earlier partial download of the same URL; anything else is discarded. */
async function resumableBytes(o: DownloadOptions): Promise<number> {
  const size = await stat(o.partialPath).then((s) => s.size, () => 0);
  if (size === 0) return 0;
  const meta = await readMeta(o.partialPath);
  if (meta?.url === o.url) return size;
  await discardPartial(o.partialPath);
  return 0;
}

async function readMeta(partialPath: string): Promise<PartialMeta | null> {
  try {
    return JSON.parse(await readFile(sidecarPath(partialPath), 'utf8')) as PartialMeta;
  } catch {
    return null;
  }
}

function writeOrNetworkError(error: unknown, url: URL, o: DownloadOptions): ModelError {
  return diskFullError(error, o.partialPath) ?? networkError(error, url, o.signal);
}

function reporter(o: DownloadOptions, resumedFrom: number) {
  let phase: FileProgress['phase'] = 'downloading';
  const report = throttledProgress(o.onProgress && ((progress) => o.onProgress?.({ ...progress, phase, resumedFrom })), o.progressIntervalMs);
  return (bytes: number, total: number | null, force = false, next: FileProgress['phase'] = 'downloading'): void => {
    phase = next;
    report(bytes, total, force);
  };
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
