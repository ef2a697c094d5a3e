/**
 * Integrated loudness of mono speech after ITU-R BS.1770-4 (EBU R128): K-weighting, 400 ms blocks every
 * 100 ms, an absolute gate at -70 LUFS and a relative gate 10 LU below the ungated level. Streaming: only
 * one number per 100 ms is kept, so two hours of audio cost about 600 KB.
 */

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

/** A biquad filter in direct form I, coefficients normalized so a0 = 1. */
class Biquad {
  x1 = 0;
  x2 = 0;
  y1 = 0;
  y2 = 0;

  constructor(
    readonly b: readonly number[],
    readonly a: readonly number[],
  ) {}
}

/** The two K-weighting stages (high shelf, then the RLB high-pass) for any sample rate. */
function kWeighting(sampleRate: number): Biquad[] {
  let f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  let q = 0.7071752369554196;
  let k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const shelf = new Biquad(
    [(vh + (vb * k) / q + k * k) / a0, (2 * (k * k - vh)) / a0, (vh - (vb * k) / q + k * k) / a0],
    [1, (2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0],
  );
  f0 = 38.13547087602444;
  q = 0.5003270373238773;
  k = Math.tan((Math.PI * f0) / sampleRate);
  a0 = 1 + k / q + k * k;
  const highPass = new Biquad([1, -2, 1], [1, (2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0]);
  return [shelf, highPass];
}

const toLufs = (meanSquare: number): number => -0.691 + 10 * Math.log10(meanSquare);

export class LoudnessMeter {
  private readonly filters: Biquad[];
  private readonly stepSamples: number;
  /** Mean square of each 100 ms step, K-weighted, full scale = 1. */
  private steps: number[] = [];
  private stepSum = 0;
  private stepCount = 0;
  private peak = 0;

  constructor(readonly sampleRate: number) {
    if (!Number.isFinite(sampleRate) || sampleRate <= 0)
      throw new TypeError(`Expected a positive sampleRate, got ${sampleRate}`);
    this.filters = kWeighting(sampleRate);
    this.stepSamples = Math.round(sampleRate / 10);
  }

  push(samples: Int16Array): void {
    const [shelf, highPass] = this.filters;
    // The two filters run inline on local copies of their state: this loop sees every sample of a job.
    const [b0, b1, b2] = shelf.b;
    const [, a1, a2] = shelf.a;
    const [c0, c1, c2] = highPass.b;
    const [, d1, d2] = highPass.a;
    let { x1, x2, y1, y2 } = shelf;
    let { x1: u1, x2: u2, y1: v1, y2: v2 } = highPass;
    let { stepSum, stepCount, peak } = this;
    const stepSamples = this.stepSamples;
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i] / 32768;
      const magnitude = x < 0 ? -x : x;
      if (magnitude > peak) peak = magnitude;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      const z = c0 * y + c1 * u1 + c2 * u2 - d1 * v1 - d2 * v2;
      u2 = u1;
      u1 = y;
      v2 = v1;
      v1 = z;
      stepSum += z * z;
      if (++stepCount === stepSamples) {
        this.steps.push(stepSum / stepSamples);
        stepSum = 0;
        stepCount = 0;
      }
    }
    Object.assign(shelf, { x1, x2, y1, y2 });
    Object.assign(highPass, { x1: u1, x2: u2, y1: v1, y2: v2 });
    this.stepSum = stepSum;
    this.stepCount = stepCount;
    this.peak = peak;
  }

  /**
   * Counts `count` samples of digital silence without filtering them: the filters are set at rest and each
   * whole 100 ms step of it has no energy. Call it once the silence has run through push() for a moment
   * (the filters' tails have died away), as SpeechRecorder.padTo does.
   */
  pushSilence(count: number): void {
    for (const filter of this.filters) Object.assign(filter, { x1: 0, x2: 0, y1: 0, y2: 0 });
    const toStepEnd = this.stepSamples - this.stepCount;
    if (count < toStepEnd) {
      this.stepCount += count;
      return;
    }
    this.steps.push(this.stepSum / this.stepSamples);
    const rest = count - toStepEnd;
    for (let whole = Math.floor(rest / this.stepSamples); whole > 0; whole--) this.steps.push(0);
    this.stepSum = 0;
    this.stepCount = rest % this.stepSamples;
  }

  /** The highest sample magnitude seen, in dBFS (-Infinity for silence). */
  get samplePeakDbfs(): number {
    return 20 * Math.log10(this.peak);
  }

  /** Integrated loudness in LUFS; -Infinity when everything is below the absolute gate (silence). */
  integratedLufs(): number {
    const blocks: number[] = [];
    for (let i = 3; i < this.steps.length; i++) {
      blocks.push((this.steps[i] + this.steps[i - 1] + this.steps[i - 2] + this.steps[i - 3]) / 4);
    }
    // Shorter than one block: measure what there is, so a short word still gets a level.
    if (blocks.length === 0 && this.steps.length > 0)
      blocks.push(this.steps.reduce((a, b) => a + b, 0) / this.steps.length);
    const audible = blocks.filter((block) => toLufs(block) > ABSOLUTE_GATE_LUFS);
    if (audible.length === 0) return -Infinity;
    const ungated = toLufs(audible.reduce((a, b) => a + b, 0) / audible.length);
    const gated = audible.filter((block) => toLufs(block) > ungated + RELATIVE_GATE_LU);
    return toLufs(gated.reduce((a, b) => a + b, 0) / gated.length);
  }
}

/** Measures a whole clip (tests, short audio). */
export function measureLoudness(samples: Int16Array, sampleRate: number): number {
  const meter = new LoudnessMeter(sampleRate);
  meter.push(samples);
  return meter.integratedLufs();
}
