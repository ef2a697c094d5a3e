/**
 * The waveform cache: peaks are kept in `<data-dir>/waveforms/`, one small binary file per media version
 * (its path, size and modification time), written by the engine and read by whoever shows them.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waveformsDir } from '../util/data-dir-caches';
import { writeFileAtomic } from '../util/atomic-write';

const MAGIC = 'SSWP';
/** Bump when the peaks or this layout change: old cache files then simply miss. */
const VERSION = 1;
const HEADER_BYTES = 24;
/** The file is little-endian; on such a machine (nearly all) the samples copy as bytes. */
const LITTLE_ENDIAN = os.endianness() === 'LE';

/** A media file's peaks: what the engine computes (src/engine/media/waveform-peaks.ts) and the timeline draws. */
export interface WaveformPeaks {
  bucketsPerSecond: number;
  /** [min, max] per bucket, interleaved, as signed 16-bit samples. */
  pairs: Int16Array;
  /** Seconds of audio decoded. */
  durationSeconds: number;
}

export interface MediaVersion {
  path: string;
  size: number;
  mtimeMs: number;
}

export async function mediaVersion(mediaPath: string): Promise<MediaVersion> {
  const stat = await fs.stat(mediaPath);
  return { path: path.resolve(mediaPath), size: stat.size, mtimeMs: stat.mtimeMs };
}

/** Where the peaks of this version of the media at this resolution are cached. */
export function waveformCachePath(dataDir: string, media: MediaVersion, bucketsPerSecond: number): string {
  const key = createHash('sha256')
    .update(JSON.stringify([VERSION, media.path, media.size, media.mtimeMs, bucketsPerSecond]))
    .digest('hex')
    .slice(0, 32);
  return path.join(waveformsDir(dataDir), `${key}.peaks`);
}

export function encodeWaveform(peaks: WaveformPeaks): Buffer {
  const file = Buffer.alloc(HEADER_BYTES + peaks.pairs.length * 2);
  file.write(MAGIC, 0, 'latin1');
  file.writeUInt32LE(VERSION, 4);
  file.writeUInt32LE(peaks.bucketsPerSecond, 8);
  file.writeDoubleLE(peaks.durationSeconds, 12);
  file.writeUInt32LE(peaks.pairs.length / 2, 20);
  if (LITTLE_ENDIAN)
    file.set(new Uint8Array(peaks.pairs.buffer, peaks.pairs.byteOffset, peaks.pairs.byteLength), HEADER_BYTES);
  else for (let i = 0; i < peaks.pairs.length; i++) file.writeInt16LE(peaks.pairs[i], HEADER_BYTES + i * 2);
  return file;
}

/** The peaks in a cache file's bytes; throws when they are not one (truncated, another version). */
export function decodeWaveform(file: Buffer): WaveformPeaks {
  if (file.length < HEADER_BYTES || file.toString('latin1', 0, 4) !== MAGIC || file.readUInt32LE(4) !== VERSION)
    throw new Error('not a waveform cache file of this version');
  const count = file.readUInt32LE(20);
  if (file.length !== HEADER_BYTES + count * 4)
    throw new Error(`a waveform cache file of ${count} buckets is ${file.length} bytes`);
  const pairs = new Int16Array(count * 2);
  if (LITTLE_ENDIAN) new Uint8Array(pairs.buffer).set(file.subarray(HEADER_BYTES));
  else for (let i = 0; i < pairs.length; i++) pairs[i] = file.readInt16LE(HEADER_BYTES + i * 2);
  return { bucketsPerSecond: file.readUInt32LE(8), durationSeconds: file.readDoubleLE(12), pairs };
}

/** Writes atomically (util/atomic-write.ts), so a reader never sees half a file. */
export async function writeWaveformFile(file: string, peaks: WaveformPeaks): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, encodeWaveform(peaks));
}

/** The cached peaks, or undefined when there are none (or the file is unreadable: it is recomputed). */
export async function readWaveformFile(file: string): Promise<WaveformPeaks | undefined> {
  try {
    return decodeWaveform(await fs.readFile(file));
  } catch {
    return undefined;
  }
}
