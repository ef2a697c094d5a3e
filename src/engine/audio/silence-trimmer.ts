/**
 * Streaming removal of leading and trailing silence from 16-bit mono audio. Quiet samples after the
 * last loud one are held back and only released when louder audio follows, so the stream never needs
 * to be whole in memory and pauses inside the speech stay untouched.
 */
import { concatSamples } from './samples';

/** Samples whose magnitude is at most this count as silence (about -50 dBFS). */
export const SILENCE_THRESHOLD = 100;
/** Silence kept before the first and after the last sound, so onsets and decays are not clipped. */
export const SILENCE_MARGIN_SECONDS = 0.05;

const EMPTY = new Int16Array(0);

/** Index of the first sample louder than `threshold`, or -1. */
export function firstAudibleIndex(samples: Int16Array, threshold = SILENCE_THRESHOLD): number {
  for (let i = 0; i < samples.length; i++) if (Math.abs(samples[i]) > threshold) return i;
  return -1;
}

export function lastAudibleIndex(samples: Int16Array, threshold = SILENCE_THRESHOLD): number {
  for (let i = samples.length - 1; i >= 0; i--) if (Math.abs(samples[i]) > threshold) return i;
  return -1;
}

export interface SilenceTrimmerOptions {
  /** Silence kept on each side of the sound, in samples. */
  marginSamples: number;
  threshold?: number;
}

export class SilenceTrimmer {
  private readonly marginSamples: number;
  private readonly threshold: number;
  private heardSound = false;
  /** Before the first sound: the latest quiet samples, at most `marginSamples`. */
  private lead: Int16Array = EMPTY;
  /** After the latest sound: every quiet sample since, in order. */
  private held: Int16Array[] = [];

  constructor(options: SilenceTrimmerOptions) {
    if (!Number.isInteger(options.marginSamples) || options.marginSamples < 0) {
      throw new TypeError(`Expected a non-negative integer marginSamples, got ${options.marginSamples}`);
    }
    this.marginSamples = options.marginSamples;
    this.threshold = options.threshold ?? SILENCE_THRESHOLD;
  }

  static forSampleRate(sampleRate: number): SilenceTrimmer {
    return new SilenceTrimmer({ marginSamples: Math.round(sampleRate * SILENCE_MARGIN_SECONDS) });
  }

  /** Takes the next samples; returns those that are now certain to belong to the output. */
  push(samples: Int16Array): Int16Array {
    const last = lastAudibleIndex(samples, this.threshold);
    if (last < 0) {
      if (this.heardSound) this.held.push(samples.slice());
      else this.lead = lastSamples([this.lead, samples], this.marginSamples);
      return EMPTY;
    }
    let out: Int16Array[];
    if (this.heardSound) {
      out = [...this.held, samples.subarray(0, last + 1)];
    } else {
      const first = firstAudibleIndex(samples, this.threshold);
      const margin = lastSamples([this.lead, samples.subarray(0, first)], this.marginSamples);
      out = [margin, samples.subarray(first, last + 1)];
      this.heardSound = true;
      this.lead = EMPTY;
    }
    this.held = last + 1 < samples.length ? [samples.slice(last + 1)] : [];
    return concatSamples(out);
  }

  /** Ends the stream: returns the margin after the last sound (nothing when there was no sound). */
  finish(): Int16Array {
    const tail = this.heardSound ? firstSamples(this.held, this.marginSamples) : EMPTY;
    this.held = [];
    this.lead = EMPTY;
    return tail;
  }
}

function lastSamples(parts: Int16Array[], count: number): Int16Array {
  const all = concatSamples(parts);
  return all.slice(Math.max(0, all.length - count));
}

function firstSamples(parts: Int16Array[], count: number): Int16Array {
  const out: Int16Array[] = [];
  let remaining = count;
  for (const part of parts) {
    if (remaining <= 0) break;
    out.push(part.subarray(0, remaining));
    remaining -= Math.min(remaining, part.length);
  }
  return concatSamples(out);
}
