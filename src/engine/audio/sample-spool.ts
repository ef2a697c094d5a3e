/**
 * A temporary file of 16-bit mono samples: the first pass of a job (synthesis) writes the whole speech here,
 * so the second pass (stretch, loudness, encoding) can read it back in blocks knowing its length and level,
 * with memory that does not grow with the text. Silence is not written but skipped over: the file gets a
 * hole there (sparse where the file system allows), which reads back as zeros.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import path from 'node:path';
import { DiskGuard } from './disk-guard';

const IS_BIG_ENDIAN = endianness() === 'BE';
/** Samples read back at a time: about 1.5 s at 22 050 Hz. */
export const SPOOL_BLOCK = 32_768;

/** Samples of silence that were counted, not written (see SampleSpool.writeSilence). */
export interface SilentRun {
  start: number;
  length: number;
}

export class SampleSpool {
  private frames = 0;
  private readonly silence: SilentRun[] = [];
  /** Samples the file really holds; up to `frames` the rest is silence not yet given a length. */
  private framesOnDisk = 0;
  private writing = true;
  private guard: DiskGuard | undefined;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    readonly sampleRate: number,
  ) {}

  /** A new spool; its writes stop (ENOSPC) before they would leave the disk without its reserve. */
  static async create(file: string, sampleRate: number): Promise<SampleSpool> {
    const guard = new DiskGuard(path.dirname(file));
    await guard.ensureRoom(0);
    const spool = new SampleSpool(file, await open(file, 'w+'), sampleRate);
    spool.guard = guard;
    return spool;
  }

  /** Opens a finished spool file (written by another thread) for reading. */
  static async open(file: string, sampleRate: number): Promise<SampleSpool> {
    const handle = await open(file, 'r');
    const spool = new SampleSpool(file, handle, sampleRate);
    spool.frames = Math.floor((await handle.stat()).size / 2);
    spool.framesOnDisk = spool.frames;
    spool.writing = false;
    return spool;
  }

  /** Samples written so far. */
  get length(): number {
    return this.frames;
  }

  get seconds(): number {
    return this.frames / this.sampleRate;
  }

  async write(samples: Int16Array): Promise<void> {
    if (!this.writing) throw new Error('The spool is already being read.');
    if (samples.length === 0) return;
    const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    const data = IS_BIG_ENDIAN ? Buffer.from(bytes).swap16() : bytes;
    await this.guard?.beforeWrite(data.length);
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written, this.frames * 2 + written);
      if (bytesWritten === 0)
        throw new Error('Could not write the temporary audio file: the disk accepted no more bytes.');
      written += bytesWritten;
    }
    this.frames += samples.length;
    this.framesOnDisk = this.frames;
  }

  /** Adds `count` samples of silence without writing them: the next write (or close) leaves a hole. */
  writeSilence(count: number): void {
    if (!this.writing) throw new Error('The spool is already being read.');
    const length = Math.max(0, Math.round(count));
    if (length === 0) return;
    const last = this.silence.at(-1);
    if (last && last.start + last.length === this.frames) last.length += length;
    else this.silence.push({ start: this.frames, length });
    this.frames += length;
  }

  /** Where writeSilence skipped: runs of silence, in order. */
  get silentRuns(): readonly SilentRun[] {
    return this.silence;
  }

  /** Reads every sample back in order, `blockSize` at a time. No more writes after this starts. */
  async *read(blockSize = SPOOL_BLOCK): AsyncGenerator<Int16Array> {
    for await (const part of this.readParts([], blockSize)) if (typeof part !== 'number') yield part;
  }

  /**
   * Reads the samples back in order like read(), but each run of `silentRuns` (as writeSilence recorded
   * them) comes as its length, without being read or held in memory.
   */
  async *readParts(silentRuns: readonly SilentRun[], blockSize = SPOOL_BLOCK): AsyncGenerator<Int16Array | number> {
    this.writing = false;
    let run = 0;
    for (let start = 0; start < this.frames;) {
      while (run < silentRuns.length && silentRuns[run].start + silentRuns[run].length <= start) run++;
      const next = silentRuns[run];
      if (next && next.start <= start) {
        const length = Math.min(next.start + next.length, this.frames) - start;
        yield length;
        start += length;
        continue;
      }
      const count = Math.min(blockSize, this.frames - start, next ? next.start - start : Infinity);
      yield await this.readBlock(start, count);
      start += count;
    }
  }

  private async readBlock(start: number, count: number): Promise<Int16Array> {
    const bytes = Buffer.alloc(count * 2);
    // Silence after the last write is not in the file yet: it stays the zeros of the new buffer.
    const stored = Math.max(0, Math.min(count, this.framesOnDisk - start)) * 2;
    let got = 0;
    while (got < stored) {
      const { bytesRead } = await this.handle.read(bytes, got, stored - got, start * 2 + got);
      if (bytesRead === 0) throw new Error('The temporary audio file is shorter than what was written to it.');
      got += bytesRead;
    }
    if (IS_BIG_ENDIAN) bytes.swap16();
    return new Int16Array(bytes.buffer, bytes.byteOffset, count);
  }

  /** Closes the file and keeps it, silence at its end included. */
  async close(): Promise<void> {
    try {
      // Trailing silence is only a length: give the file that length (a hole, not written zeros).
      if (this.writing && this.frames > this.framesOnDisk) await this.handle.truncate(this.frames * 2);
      this.framesOnDisk = this.frames;
    } finally {
      this.writing = false;
      await this.handle.close().catch(() => undefined);
    }
  }

  /** Closes and deletes the file. Safe to call more than once. */
  async dispose(): Promise<void> {
    this.writing = false;
    await this.handle.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }
}
