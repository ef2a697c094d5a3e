/**
 * A look-ahead peak limiter for 16-bit mono audio with a gain applied first: no sample leaves above the
 * ceiling. Before a peak the gain falls along a straight ramp (at most one full-scale step over the
 * look-ahead, so no clicks) and after it recovers slowly. The output is delayed internally by the
 * look-ahead and comes out aligned with the input. The needed gain is a sliding minimum over the peaks in
 * the look-ahead, kept in a monotonic queue, so the cost per sample stays constant however dense the peaks.
 */

export interface LimiterOptions {
  sampleRate: number;
  /** Linear gain applied before limiting. */
  gain: number;
  /** The highest allowed magnitude, in dBFS. */
  ceilingDbfs: number;
  lookAheadSeconds?: number;
  releaseSeconds?: number;
}

export class PeakLimiter {
  private readonly lookAhead: number;
  /** Gain change per sample of the attack ramp: from 1 to 0 across the look-ahead. */
  private readonly slope: number;
  private readonly ceiling: number;
  private readonly releasePerSample: number;
  private readonly gain: number;
  /** Gained input not yet output; `window[0]` is absolute sample `windowStart`. */
  private window: Float64Array;
  private windowLength = 0;
  private windowStart = 0;
  /** Next absolute sample to consider for the queue. */
  private scanned = 0;
  /** Peaks ahead: absolute index and `needed + index · slope`, increasing from front to back. */
  private queueIndex: number[] = [];
  private queueValue: number[] = [];
  private queueHead = 0;
  private currentGain = 1;

  constructor(options: LimiterOptions) {
    this.gain = options.gain;
    this.ceiling = 32767 * 10 ** (options.ceilingDbfs / 20);
    this.lookAhead = Math.max(1, Math.round(options.sampleRate * (options.lookAheadSeconds ?? 0.005)));
    this.slope = 1 / (this.lookAhead + 1);
    this.releasePerSample = 1 / Math.max(1, options.sampleRate * (options.releaseSeconds ?? 0.08));
    this.window = new Float64Array(this.lookAhead * 4);
  }

  /** Takes input; returns the limited samples that have cleared the look-ahead. */
  process(samples: Int16Array): Int16Array {
    const needed = this.windowLength + samples.length;
    if (needed > this.window.length) {
      const grown = new Float64Array(Math.max(needed, this.window.length * 2));
      grown.set(this.window.subarray(0, this.windowLength));
      this.window = grown;
    }
    const { gain } = this;
    for (let i = 0; i < samples.length; i++) this.window[this.windowLength++] = samples[i] * gain;
    return this.emit(Math.max(0, this.windowLength - this.lookAhead));
  }

  /** Outputs what is still in the look-ahead window. */
  flush(): Int16Array {
    return this.emit(this.windowLength);
  }

  private emit(count: number): Int16Array {
    const out = new Int16Array(count);
    const { window, lookAhead, ceiling, slope, queueIndex, queueValue } = this;
    const end = this.windowStart + this.windowLength;
    let gainNow = this.currentGain;
    for (let n = 0; n < count; n++) {
      const at = this.windowStart + n;
      // Queue the peaks that enter the look-ahead of this sample.
      for (const last = Math.min(end - 1, at + lookAhead); this.scanned <= last; this.scanned++) {
        const value = window[this.scanned - this.windowStart];
        const magnitude = value < 0 ? -value : value;
        if (magnitude <= ceiling) continue;
        const key = ceiling / magnitude + this.scanned * slope;
        while (queueValue.length > this.queueHead && queueValue[queueValue.length - 1] >= key) {
          queueValue.pop();
          queueIndex.pop();
        }
        queueIndex.push(this.scanned);
        queueValue.push(key);
      }
      while (this.queueHead < queueIndex.length && queueIndex[this.queueHead] < at) this.queueHead++;
      let target = 1;
      if (this.queueHead < queueIndex.length) target = Math.min(1, queueValue[this.queueHead] - at * slope);
      gainNow = target < gainNow ? target : Math.min(target, gainNow + this.releasePerSample);
      const scaled = window[n] * gainNow;
      out[n] = scaled > 32767 ? 32767 : scaled < -32768 ? -32768 : Math.round(scaled);
    }
    this.currentGain = gainNow;
    if (this.queueHead > 1024) {
      queueIndex.splice(0, this.queueHead);
      queueValue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    window.copyWithin(0, count, this.windowLength);
    this.windowLength -= count;
    this.windowStart += count;
    return out;
  }
}
