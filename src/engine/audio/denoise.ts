/**
 * Light noise reduction for synthesized speech, without a model: a 70 Hz high-pass removes DC and rumble,
 * and a downward expander pushes the noise floor between words further down (the hiss some neural vocoders
 * leave). The floor is measured in the first pass (`NoiseFloorMeter`); clean voices (espeak-ng, whose
 * pauses are digital silence) are not passed through the denoiser at all (see SpeechRecorder.write).
 */

import { roundToInt16 } from './samples';

const HIGH_PASS_HZ = 70;
const BLOCK_SECONDS = 0.02;
/** Floors below this are inaudible: the expander stays off. */
const INAUDIBLE_FLOOR_DB = -66;
/** Blocks up to this far above the floor count as noise and are attenuated. */
const GATE_MARGIN_DB = 8;
const MAX_ATTENUATION_DB = 18;

/** Estimates the noise floor as a low percentile of 20 ms block levels, ignoring digital silence. */
export class NoiseFloorMeter {
  private readonly histogram = new Uint32Array(121); // bins of 1 dB from -120 to 0 dBFS
  private readonly blockSamples: number;
  private sum = 0;
  private count = 0;
  /** Blocks of digital silence (what espeak-ng and Flite put between words). */
  private silentBlocks = 0;

  constructor(sampleRate: number) {
    this.blockSamples = Math.max(1, Math.round(sampleRate * BLOCK_SECONDS));
  }

  push(samples: Int16Array): void {
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i] / 32768;
      this.sum += x * x;
      if (++this.count === this.blockSamples) {
        const rms = Math.sqrt(this.sum / this.count);
        if (rms > 1e-5) this.histogram[Math.max(0, Math.min(120, Math.round(120 + 20 * Math.log10(rms))))]++;
        else this.silentBlocks++;
        this.sum = 0;
        this.count = 0;
      }
    }
  }

  /** Counts `count` samples of digital silence without looking at them (the same as pushing zeros). */
  pushSilence(count: number): void {
    const toBlockEnd = this.blockSamples - this.count;
    if (count < toBlockEnd) {
      this.count += count;
      return;
    }
    this.push(new Int16Array(toBlockEnd));
    const rest = count - toBlockEnd;
    this.silentBlocks += Math.floor(rest / this.blockSamples);
    this.count = rest % this.blockSamples;
  }

  /**
   * Whether at least a tenth of the blocks so far are digital silence: the voice's pauses are exact
   * zeros (espeak-ng, Flite, SVOX Pico), so it has no noise floor to reduce nor rumble to filter.
   */
  pausesAreDigitalSilence(): boolean {
    const total = this.silentBlocks + this.histogram.reduce((a, b) => a + b, 0);
    return total > 0 && this.silentBlocks >= total * 0.1;
  }

  /**
   * The 10th percentile block level in dBFS: the level between words. -Infinity when the pauses are digital
   * silence, or when that level is not clearly below the speech (within 20 dB of the 90th percentile), since
   * then there is no floor to tell apart from quiet speech.
   */
  floorDb(): number {
    const total = this.silentBlocks + this.histogram.reduce((a, b) => a + b, 0);
    if (total === 0) return -Infinity;
    const floor = this.percentile(0.1, total);
    const speech = this.percentile(0.9, total);
    return speech - floor >= 20 ? floor : -Infinity;
  }

  private percentile(fraction: number, total: number): number {
    let seen = this.silentBlocks;
    if (seen >= total * fraction) return -Infinity;
    for (let bin = 0; bin < this.histogram.length; bin++) {
      seen += this.histogram[bin];
      if (seen >= total * fraction) return bin - 120;
    }
    return 0;
  }
}

export class Denoiser {
  /** High-pass biquad state and coefficients (Butterworth, Q = 1/√2). */
  private readonly b: number[];
  private readonly a: number[];
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  private gateThreshold = 0;
  private readonly floorGain: number;
  private envelope = 0;
  private gain = 1;
  private readonly envelopeCoefficient: number;
  private readonly attackStep: number;
  private readonly releaseStep: number;

  /** `floorDb` from NoiseFloorMeter; the expander is off when the floor is inaudible. */
  constructor(sampleRate: number, floorDb: number) {
    const k = Math.tan((Math.PI * HIGH_PASS_HZ) / sampleRate);
    const q = Math.SQRT1_2;
    const norm = 1 / (1 + k / q + k * k);
    this.b = [norm, -2 * norm, norm];
    this.a = [1, 2 * (k * k - 1) * norm, (1 - k / q + k * k) * norm];
    this.setFloor(floorDb);
    this.floorGain = 10 ** (-MAX_ATTENUATION_DB / 20);
    this.envelopeCoefficient = Math.exp(-1 / (sampleRate * 0.01));
    this.attackStep = 1 / (sampleRate * 0.005);
    this.releaseStep = 1 / (sampleRate * 0.06);
  }

  /** Follows a noise floor measured as the audio goes (see NoiseFloorMeter); -Infinity turns the expander off. */
  setFloor(floorDb: number): void {
    const on = Number.isFinite(floorDb) && floorDb > INAUDIBLE_FLOOR_DB;
    this.gateThreshold = on ? 10 ** ((floorDb + GATE_MARGIN_DB) / 20) : 0;
  }

  process(samples: Int16Array): Int16Array {
    const out = new Int16Array(samples.length);
    const [b0, b1, b2] = this.b;
    const [, a1, a2] = this.a;
    // Local copies of the state: this loop sees every sample of a job.
    let { x1, x2, y1, y2, envelope, gain } = this;
    const { gateThreshold, floorGain, envelopeCoefficient, attackStep, releaseStep } = this;
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i] / 32768;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      let value = y;
      if (gateThreshold > 0) {
        const magnitude = y < 0 ? -y : y;
        const decayed = envelopeCoefficient * envelope + (1 - envelopeCoefficient) * magnitude;
        envelope = magnitude > decayed ? magnitude : decayed;
        const target = envelope >= gateThreshold ? 1 : floorGain;
        // Open fast when speech starts, close slowly after it, so word endings are not cut.
        gain = target > gain ? Math.min(target, gain + attackStep) : Math.max(target, gain - releaseStep);
        value *= gain;
      }
      out[i] = roundToInt16(value * 32768);
    }
    Object.assign(this, { x1, x2, y1, y2, envelope, gain });
    return out;
  }

  /**
   * The state after a long digital silence, without processing it: filters and envelope at rest, the gate
   * closed. Call it once the silence has run through process() for a moment (its tails have died away).
   */
  rest(): void {
    Object.assign(this, { x1: 0, x2: 0, y1: 0, y2: 0, envelope: 0 });
    if (this.gateThreshold > 0) this.gain = this.floorGain;
  }
}
