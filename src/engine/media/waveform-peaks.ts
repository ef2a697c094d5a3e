/**
 * Waveform peaks of a media file: ffmpeg decodes it to mono PCM as a stream, and each bucket of samples
 * (a fixed number per second) is reduced to its lowest and highest sample as the bytes arrive, so no more
 * than one pipe chunk of decoded audio is ever held, however long the media.
 */
import { spawn } from 'node:child_process';
import { TaskYieldedError, UserFacingError } from '../../engine-api/protocol';
import type { WaveformPeaks } from '../../audio/waveform-file';
import { firstErrorLine, isMissingExecutable, toolNotFoundError, type MediaTools } from './ffmpeg';

/** Decoding rate for peaks: enough to see speech's envelope, a fraction of the work of 16 kHz. */
export const PEAKS_SAMPLE_RATE = 8_000;

/** Reduces a stream of signed 16-bit little-endian mono samples to [min, max] pairs per bucket. */
export class PeakBuckets {
  private pairs: Int16Array;
  private count = 0;
  private inBucket = 0;
  private low = 0;
  private high = 0;
  /** A byte left over when a chunk ends in the middle of a sample. */
  private carry: number | undefined;

  constructor(
    readonly samplesPerBucket: number,
    expectedBuckets = 1024,
  ) {
    if (!Number.isInteger(samplesPerBucket) || samplesPerBucket < 1)
      throw new TypeError(`Expected a positive integer of samples per bucket, got ${samplesPerBucket}`);
    this.pairs = new Int16Array(Math.max(2, expectedBuckets * 2));
  }

  push(chunk: Uint8Array): void {
    let at = 0;
    if (this.carry !== undefined && chunk.length > 0) {
      this.sample(((this.carry | (chunk[0] << 8)) << 16) >> 16);
      this.carry = undefined;
      at = 1;
    }
    const whole = at + Math.floor((chunk.length - at) / 2) * 2;
    for (let i = at; i < whole; i += 2) this.sample(((chunk[i] | (chunk[i + 1] << 8)) << 16) >> 16);
    if (whole < chunk.length) this.carry = chunk[whole];
  }

  /** Continues after `done`, the complete buckets of an earlier pass that stopped (see `completed`). */
  static continuing(samplesPerBucket: number, done: Int16Array, expectedBuckets = 1024): PeakBuckets {
    const buckets = new PeakBuckets(samplesPerBucket, Math.max(expectedBuckets, done.length / 2));
    buckets.pairs.set(done);
    buckets.count = done.length / 2;
    return buckets;
  }

  /** A copy of the complete buckets so far (a partial last bucket is left out: a later pass redoes it). */
  completed(): Int16Array {
    return this.pairs.slice(0, this.count * 2);
  }

  /** The [min, max] pairs so far, the last, partial bucket included. */
  finish(): Int16Array {
    if (this.inBucket > 0) this.close();
    return this.pairs.subarray(0, this.count * 2);
  }

  private sample(value: number): void {
    if (this.inBucket === 0) {
      this.low = value;
      this.high = value;
    } else if (value < this.low) this.low = value;
    else if (value > this.high) this.high = value;
    if (++this.inBucket === this.samplesPerBucket) this.close();
  }

  private close(): void {
    if (this.count * 2 + 2 > this.pairs.length) {
      const grown = new Int16Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[this.count * 2] = this.low;
    this.pairs[this.count * 2 + 1] = this.high;
    this.count++;
    this.inBucket = 0;
  }
}

export interface PeaksOptions {
  bucketsPerSecond: number;
  /** What ffprobe said the media lasts: sizes the result and drives `onProgress`. */
  expectedSeconds?: number;
  onProgress?(fraction: number): void;
  /** Asks the decoding to stop (ffmpeg is ended at once) and the promise to reject with TaskYieldedError. */
  yieldSignal?: AbortSignal;
  /** Hands over the complete buckets drawn before a yield stopped the decoding, to continue from later. */
  onStopped?(completed: Int16Array): void;
  /** The complete buckets of an earlier pass that yielded: decoding starts after them (ffmpeg seeks there). */
  resume?: Int16Array;
}

export type { WaveformPeaks };

/** Streams the audio ffmpeg picks from `inputPath` through PeakBuckets. */
export function computeWaveformPeaks(
  inputPath: string,
  tools: MediaTools,
  options: PeaksOptions,
): Promise<WaveformPeaks> {
  const samplesPerBucket = PEAKS_SAMPLE_RATE / options.bucketsPerSecond;
  if (!Number.isInteger(samplesPerBucket))
    throw new TypeError(
      `Expected buckets per second that divide ${PEAKS_SAMPLE_RATE}, got ${options.bucketsPerSecond}`,
    );
  const expected = options.expectedSeconds ?? 0;
  const expectedBuckets = Math.ceil(expected * options.bucketsPerSecond) + 1;
  const resume = options.resume && options.resume.length % 2 === 0 ? options.resume : undefined;
  const buckets = resume
    ? PeakBuckets.continuing(samplesPerBucket, resume, expectedBuckets)
    : new PeakBuckets(samplesPerBucket, expectedBuckets);
  const skippedSamples = resume ? (resume.length / 2) * samplesPerBucket : 0;
  // Seeking the input starts the decoding at the first bucket not drawn yet (at a bucket's edge, to the sample for PCM).
  const seek = skippedSamples > 0 ? ['-ss', (skippedSamples / PEAKS_SAMPLE_RATE).toFixed(6)] : [];
  const args = [
    '-nostdin',
    '-hide_banner',
    '-nostats',
    '-v',
    'error',
    ...seek,
    '-i',
    inputPath,
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    '1',
    '-ar',
    String(PEAKS_SAMPLE_RATE),
    '-f',
    's16le',
    'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    if (options.yieldSignal?.aborted) return reject(new TaskYieldedError());
    const child = spawn(tools.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const onYield = (): void => {
      child.kill('SIGKILL');
      options.onStopped?.(buckets.completed());
      reject(new TaskYieldedError());
    };
    options.yieldSignal?.addEventListener('abort', onYield, { once: true });
    let stderr = '';
    let bytes = skippedSamples * 2;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buckets.push(chunk);
      bytes += chunk.length;
      if (expected > 0) options.onProgress?.(Math.min(1, bytes / 2 / PEAKS_SAMPLE_RATE / expected));
    });
    child.on('error', (error) => reject(isMissingExecutable(error) ? toolNotFoundError('ffmpeg') : error));
    child.on('close', (code) => {
      options.yieldSignal?.removeEventListener('abort', onYield);
      if (code !== 0) {
        reject(
          new UserFacingError(`The file is not a media file ffmpeg can read: ${firstErrorLine(stderr, inputPath)}`),
        );
        return;
      }
      resolve({
        bucketsPerSecond: options.bucketsPerSecond,
        pairs: buckets.finish(),
        durationSeconds: bytes / 2 / PEAKS_SAMPLE_RATE,
      });
    });
  });
}
