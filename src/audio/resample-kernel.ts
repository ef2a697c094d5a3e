/**
 * Where a streaming resampler keeps the input it still needs and does its multiply-adds. This one is plain
 * JavaScript on Float64 arrays (the fastest layout for V8's scalar code); the engine's WebAssembly SIMD
 * kernel (simd-resample-kernel.ts) does the same sums four taps at a time.
 */
import type { PolyphaseFilter } from './polyphase-filter';

export interface ResampleKernel {
  /** Input samples held. */
  readonly length: number;
  append(samples: Int16Array): void;
  appendSilence(count: number): void;
  /** `count` outputs, the first with its first tap on held sample `start` and at step `k` of the cycle. */
  run(count: number, start: number, k: number): Int16Array;
  /** Forgets the first `count` held samples. */
  discard(count: number): void;
}

export class ScalarResampleKernel implements ResampleKernel {
  private history = new Float64Array(4096);
  length = 0;

  constructor(private readonly filter: PolyphaseFilter) {}

  append(samples: Int16Array): void {
    this.reserve(samples.length);
    this.history.set(samples, this.length);
    this.length += samples.length;
  }

  appendSilence(count: number): void {
    this.reserve(count);
    this.history.fill(0, this.length, this.length + count);
    this.length += count;
  }

  run(count: number, start: number, k: number): Int16Array {
    const { taps, coefficients, phaseOf, advance, upFactor } = this.filter;
    const history = this.history;
    const out = new Int16Array(count);
    let first = start;
    let step = k;
    for (let n = 0; n < count; n++) {
      const base = phaseOf[step] * taps;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let tap = 0; tap < taps; tap += 4) {
        s0 += coefficients[base + tap] * history[first + tap];
        s1 += coefficients[base + tap + 1] * history[first + tap + 1];
        s2 += coefficients[base + tap + 2] * history[first + tap + 2];
        s3 += coefficients[base + tap + 3] * history[first + tap + 3];
      }
      const sum = s0 + s1 + s2 + s3;
      out[n] = sum >= 32767 ? 32767 : sum <= -32768 ? -32768 : Math.round(sum);
      first += advance[step];
      if (++step === upFactor) step = 0;
    }
    return out;
  }

  discard(count: number): void {
    this.history.copyWithin(0, count, this.length);
    this.length -= count;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.history.length) return;
    const grown = new Float64Array(Math.max(this.length + extra, this.history.length * 2));
    grown.set(this.history.subarray(0, this.length));
    this.history = grown;
  }
}
