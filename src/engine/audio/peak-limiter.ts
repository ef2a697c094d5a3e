/**
 * A look-ahead peak limiter for 16-bit mono audio with a gain applied first: no sample leaves above the
 * ceiling. Before a peak the gain falls along a straight ramp (at most one full-scale step over the
 * look-ahead, so no clicks) and after it recovers slowly. The output is delayed internally by the
 * look-ahead and comes out aligned with the input. The needed gain is a sliding minimum over the peaks in
 * the look-ahead, kept in a monotonic queue, so the cost per sample stays constant however dense the peaks.
 */
import { roundToInt16 } from './samples';

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
  /** Input not yet output (the gain is applied on the way out); `window[0]` is absolute sample `windowStart`. */
  private window: Int16Array;
  private windowLength = 0;
  private windowStart = 0;
  /** Next absolute sample to consider for the queue. */
  private scanned = 0;
  /**
   * Peaks ahead, a ring of `lookAhead + 1` slots (no more can be ahead at once): absolute index and
   * `needed + index · slope`, increasing from head to tail.
   */
  private readonly queueIndex: Float64Array;
  private readonly queueValue: Float64Array;
  private queueHead = 0;
  private queueSize = 0;
  private currentGain = 1;

  constructor(options: LimiterOptions) {
    this.gain = options.gain;
    this.ceiling = 32767 * 10 ** (options.ceilingDbfs / 20);
    this.lookAhead = Math.max(1, Math.round(options.sampleRate * (options.lookAheadSeconds ?? 0.005)));
    this.slope = 1 / (this.lookAhead + 1);
    this.releasePerSample = 1 / Math.max(1, options.sampleRate * (options.releaseSeconds ?? 0.08));
    this.window = new Int16Array(this.lookAhead * 4);
    this.queueIndex = new Float64Array(this.lookAhead + 1);
    this.queueValue = new Float64Array(this.lookAhead + 1);
  }

  /** Takes input; returns the limited samples that have cleared the look-ahead. */
  process(samples: Int16Array): Int16Array {
    const needed = this.windowLength + samples.length;
    if (needed > this.window.length) {
      const grown = new Int16Array(Math.max(needed, this.window.length * 2));
      grown.set(this.window.subarray(0, this.windowLength));
      this.window = grown;
    }
    this.window.set(samples, this.windowLength);
    this.windowLength += samples.length;
    return this.emit(Math.max(0, this.windowLength - this.lookAhead));
  }

  /** Outputs what is still in the look-ahead window. */
  flush(): Int16Array {
    return this.emit(this.windowLength);
  }

  /** One loop: gain, the peaks entering the look-ahead, the gain ramp, and the output sample. */
  private emit(count: number): Int16Array {
    const out = new Int16Array(count);
    const { window, lookAhead, ceiling, slope, queueIndex, queueValue, gain, releasePerSample, windowStart } = this;
    const slots = queueIndex.length;
    const end = windowStart + this.windowLength;
    let { scanned, queueHead, queueSize } = this;
    let gainNow = this.currentGain;
    for (let n = 0; n < count; n++) {
      const at = windowStart + n;
      // The common case, most samples of speech: no peak ahead, none entering, no recovery: a plain gain.
      if (queueSize === 0 && gainNow === 1 && scanned === at + lookAhead && scanned < end) {
        const entering = window[scanned - windowStart];
        if ((entering < 0 ? -entering : entering) * gain <= ceiling) {
          scanned++;
          // roundToInt16 written out (no clamp needed under the ceiling): as a call it doubled this loop's cost.
          const y = window[n] * gain + 0.5;
          const t = y | 0;
          out[n] = t > y ? t - 1 : t;
          continue;
        }
      }
      // Queue the peaks that enter the look-ahead of this sample.
      for (const last = at + lookAhead < end ? at + lookAhead : end - 1; scanned <= last; scanned++) {
        const value = window[scanned - windowStart] * gain;
        const magnitude = value < 0 ? -value : value;
        if (magnitude <= ceiling) continue;
        const key = ceiling / magnitude + scanned * slope;
        while (queueSize > 0 && queueValue[wrap(queueHead + queueSize - 1, slots)] >= key) queueSize--;
        const tail = wrap(queueHead + queueSize, slots);
        queueIndex[tail] = scanned;
        queueValue[tail] = key;
        queueSize++;
      }
      while (queueSize > 0 && queueIndex[queueHead] < at) {
        queueHead = queueHead + 1 === slots ? 0 : queueHead + 1;
        queueSize--;
      }
      let target = 1;
      if (queueSize > 0) {
        const needed = queueValue[queueHead] - at * slope;
        if (needed < 1) target = needed;
      }
      if (target < gainNow) gainNow = target;
      else if (gainNow < target) gainNow = gainNow + releasePerSample < target ? gainNow + releasePerSample : target;
      out[n] = roundToInt16(window[n] * gain * gainNow);
    }
    this.currentGain = gainNow;
    this.scanned = scanned;
    this.queueHead = queueHead;
    this.queueSize = queueSize;
    window.copyWithin(0, count, this.windowLength);
    this.windowLength -= count;
    this.windowStart += count;
    return out;
  }
}

/** `index` into a ring of `slots` (index < 2 · slots), without the cost of `%`. */
const wrap = (index: number, slots: number): number => (index >= slots ? index - slots : index);
