/**
 * A temporary file of 16-bit mono samples: the first pass of a job (synthesis) writes the whole speech here,
 * so the second pass (stretch, loudness, encoding) can read it back in blocks knowing its length and level,
 * with memory that does not grow with the text.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';

const IS_BIG_ENDIAN = endianness() === 'BE';
/** Samples read back at a time: about 1.5 s at 22 050 Hz. */
export const SPOOL_BLOCK = 32_768;

export class SampleSpool {
  private frames = 0;
  private writing = true;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    readonly sampleRate: number,
  ) {}

  static async create(path: string, sampleRate: number): Promise<SampleSpool> {
    return new SampleSpool(path, await open(path, 'w+'), sampleRate);
  }

  /** Opens a finished spool file (written by another thread) for reading. */
  static async open(path: string, sampleRate: number): Promise<SampleSpool> {
    const handle = await open(path, 'r');
    const spool = new SampleSpool(path, handle, sampleRate);
    spool.frames = Math.floor((await handle.stat()).size / 2);
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
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written, this.frames * 2 + written);
      if (bytesWritten === 0) throw new Error('Could not write the temporary audio file: the disk accepted no more bytes.');
      written += bytesWritten;
    }
    this.frames += samples.length;
  }

  /** Writes `count` samples of silence. */
  async writeSilence(count: number): Promise<void> {
    for (let left = Math.max(0, Math.round(count)); left > 0; left -= SPOOL_BLOCK) {
      await this.write(new Int16Array(Math.min(SPOOL_BLOCK, left)));
    }
  }

  /** Reads every sample back in order, `blockSize` at a time. No more writes after this starts. */
  async *read(blockSize = SPOOL_BLOCK): AsyncGenerator<Int16Array> {
    this.writing = false;
    for (let start = 0; start < this.frames; start += blockSize) {
      const count = Math.min(blockSize, this.frames - start);
      const bytes = Buffer.alloc(count * 2);
      let got = 0;
      while (got < bytes.length) {
        const { bytesRead } = await this.handle.read(bytes, got, bytes.length - got, start * 2 + got);
        if (bytesRead === 0) throw new Error('The temporary audio file is shorter than what was written to it.');
        got += bytesRead;
      }
      if (IS_BIG_ENDIAN) bytes.swap16();
      yield new Int16Array(bytes.buffer, bytes.byteOffset, count);
    }
  }

  /** Closes the file and keeps it. */
  async close(): Promise<void> {
    this.writing = false;
    await this.handle.close().catch(() => undefined);
  }

  /** Closes and deletes the file. Safe to call more than once. */
  async dispose(): Promise<void> {
    this.writing = false;
    await this.handle.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }
}
