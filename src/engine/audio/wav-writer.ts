/**
 * Writes 16-bit PCM WAV files as a stream: the header goes out first with placeholder sizes, which are
 * patched once the length is known, so no audio has to be held in memory. With `raw`, the same samples go
 * out with no header at all (the OpenAI door's `pcm`). Silence is skipped over rather
 * than written (a hole in the file, sparse where the file system allows), and writes stop (ENOSPC) before
 * the disk runs out of its reserve (disk-guard.ts).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import path from 'node:path';
import { UserFacingError } from '../../engine-api/protocol';
import { DiskGuard } from './disk-guard';

export const WAV_HEADER_BYTES = 44;
const BYTES_PER_SAMPLE = 2;
/** RIFF sizes are 32-bit; the RIFF size field counts everything after its own 8 bytes. */
const MAX_DATA_BYTES = 0xffffffff - (WAV_HEADER_BYTES - 8);
const IS_BIG_ENDIAN = endianness() === 'BE';

export interface WavFormat {
  sampleRate: number;
  channels: 1 | 2;
  /** Headerless little-endian samples instead of a WAV file. */
  raw?: boolean;
}

export interface WavSummary {
  /** Size of the whole file. */
  bytes: number;
  /** Sample frames written (one sample per channel each). */
  frames: number;
}

export class WavWriter {
  private frames = 0;
  /** Frames the file really holds; up to `frames` the rest is silence not yet given a length. */
  private framesOnDisk = 0;
  private closed = false;
  private readonly guard: DiskGuard;
  private readonly headerBytes: number;

  private constructor(
    private readonly handle: FileHandle,
    readonly format: WavFormat,
    file: string,
  ) {
    this.guard = new DiskGuard(path.dirname(file));
    this.headerBytes = format.raw ? 0 : WAV_HEADER_BYTES;
  }

  /** Creates (or truncates) `file` and writes the header. */
  static async create(file: string, format: WavFormat): Promise<WavWriter> {
    if (!Number.isInteger(format.sampleRate) || format.sampleRate <= 0) {
      throw new TypeError(`Expected a positive integer sampleRate, got ${format.sampleRate}`);
    }
    if (format.channels !== 1 && format.channels !== 2)
      throw new TypeError(`Expected 1 or 2 channels, got ${String(format.channels)}`);
    const handle = await open(file, 'w');
    try {
      if (!format.raw) await writeFully(handle, wavHeader(format, 0), 0);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new WavWriter(handle, format, file);
  }

  /** Appends mono samples; with two channels each sample goes to both. */
  async write(samples: Int16Array): Promise<void> {
    this.checkRoomFor(samples.length);
    if (samples.length === 0) return;
    const data = littleEndianBytes(interleave(samples, this.format.channels));
    await this.guard.beforeWrite(data.length);
    await writeFully(this.handle, data, this.headerBytes + this.dataBytes);
    this.frames += samples.length;
    this.framesOnDisk = this.frames;
  }

  /** Appends `count` frames of silence without writing them: the next write (or close) leaves a hole. */
  async writeSilence(count: number): Promise<void> {
    this.checkRoomFor(count);
    this.frames += count;
  }

  /** Patches the sizes into the header and closes the file. */
  async close(): Promise<WavSummary> {
    if (this.closed) throw new Error('The WAV writer is closed.');
    this.closed = true;
    try {
      if (this.frames > this.framesOnDisk) await this.handle.truncate(this.headerBytes + this.dataBytes);
      if (!this.format.raw) await writeFully(this.handle, wavHeader(this.format, this.dataBytes), 0);
    } finally {
      await this.handle.close();
    }
    return { bytes: this.headerBytes + this.dataBytes, frames: this.frames };
  }

  /** The same as close(), under the name every audio sink shares. */
  finish(): Promise<WavSummary> {
    return this.close();
  }

  /** Closes the file without finishing it; the caller removes it. */
  async abort(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }

  private checkRoomFor(frames: number): void {
    if (this.closed) throw new Error('The WAV writer is closed.');
    if (!this.format.raw && this.dataBytes + frames * this.format.channels * BYTES_PER_SAMPLE > MAX_DATA_BYTES) {
      throw new UserFacingError(
        'The audio is longer than a WAV file can hold (4 GB): choose mp3, aac or flac, a lower sample rate, or mono.',
      );
    }
  }

  private get dataBytes(): number {
    return this.frames * this.format.channels * BYTES_PER_SAMPLE;
  }
}

function interleave(samples: Int16Array, channels: number): Int16Array {
  if (channels === 1) return samples;
  const out = new Int16Array(samples.length * channels);
  for (let i = 0, at = 0; i < samples.length; i++) {
    for (let channel = 0; channel < channels; channel++) out[at++] = samples[i];
  }
  return out;
}

/** The samples' bytes as WAV wants them (little-endian), copied only on big-endian machines. */
function littleEndianBytes(samples: Int16Array): Buffer {
  const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  return IS_BIG_ENDIAN ? Buffer.from(bytes).swap16() : bytes;
}

async function writeFully(handle: FileHandle, buffer: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, position + written);
    if (bytesWritten === 0) throw new Error('Could not write the WAV file: the disk accepted no more bytes.');
    written += bytesWritten;
  }
}

function wavHeader({ sampleRate, channels }: WavFormat, dataBytes: number): Buffer {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  const blockAlign = channels * BYTES_PER_SAMPLE;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(WAV_HEADER_BYTES - 8 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(BYTES_PER_SAMPLE * 8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
