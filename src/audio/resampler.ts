/**
 * A streaming polyphase resampler for 16-bit mono audio: Kaiser-windowed sinc interpolation at the
 * exact rational ratio of the two rates. It keeps the input it still needs between calls, so audio fed
 * in pieces comes out exactly as if it had been fed at once (no clicks at the seams).
 */

/** Zero crossings of the sinc on each side of the centre: longer means a sharper low-pass. */
const ZERO_CROSSINGS = 16;
/** The low-pass cut-off as a fraction of the lower Nyquist frequency, leaving room for the roll-off. */
const CUTOFF = 0.92;
const KAISER_BETA = 8.6;

export class StreamingResampler {
  private readonly upFactor: number;
  private readonly downFactor: number;
  /** Taps per phase, and the offset of the first tap before the output's input position. */
  private readonly taps: number;
  private readonly tapsBefore: number;
  private readonly coefficients: Float64Array;
  /** Input not yet consumed; `pending[0]` is absolute input sample `pendingStart`. */
  private pending: Float64Array;
  private pendingStart: number;
  /** Absolute input position of the next output: `inputIndex + phase / upFactor`. */
  private inputIndex = 0;
  private phase = 0;
  private inputCount = 0;
  private outputCount = 0;

  constructor(
    readonly inputRate: number,
    readonly outputRate: number,
  ) {
    for (const rate of [inputRate, outputRate]) {
      if (!Number.isInteger(rate) || rate <= 0)
        throw new TypeError(`Expected a positive integer sample rate, got ${rate}`);
    }
    const divisor = gcd(inputRate, outputRate);
    this.upFactor = outputRate / divisor;
    this.downFactor = inputRate / divisor;
    // Cut-off in cycles per input sample, below the Nyquist frequency of the lower rate.
    const cutoff = 0.5 * Math.min(1, outputRate / inputRate) * CUTOFF;
    const halfWidth = ZERO_CROSSINGS / (2 * cutoff);
    this.tapsBefore = Math.ceil(halfWidth) - 1;
    // A multiple of four (the extra taps are zero), so the inner loop can run four taps at a time.
    this.taps = Math.ceil((this.tapsBefore + Math.ceil(halfWidth) + 1) / 4) * 4;
    this.coefficients = buildPhases(this.upFactor, this.taps, this.tapsBefore, cutoff, halfWidth);
    // Silence before the start, so the first outputs have the history their taps reach back to.
    this.pending = new Float64Array(this.tapsBefore);
    this.pendingStart = -this.tapsBefore;
  }

  get isPassThrough(): boolean {
    return this.upFactor === this.downFactor;
  }

  /** Takes the next input samples; returns every output sample that can be computed so far. */
  process(input: Int16Array): Int16Array {
    if (this.isPassThrough) return input.slice();
    this.inputCount += input.length;
    const joined = new Float64Array(this.pending.length + input.length);
    joined.set(this.pending);
    joined.set(input, this.pending.length);
    this.pending = joined;
    return this.produce(Number.POSITIVE_INFINITY);
  }

  /** Ends the stream: returns the outputs that need the (silent) samples after the end. */
  flush(): Int16Array {
    if (this.isPassThrough) return new Int16Array(0);
    const padded = new Float64Array(this.pending.length + this.taps);
    padded.set(this.pending);
    this.pending = padded;
    // The output spans exactly the input's duration: ceil(inputs × up / down) samples in all.
    const totalOutputs = Math.ceil((this.inputCount * this.upFactor) / this.downFactor);
    return this.produce(totalOutputs - this.outputCount);
  }

  private produce(limit: number): Int16Array {
    const { taps, upFactor, downFactor, coefficients, pending, pendingStart } = this;
    const available = pendingStart + pending.length;
    const estimate = Math.max(0, Math.ceil(((available - this.inputIndex) * upFactor) / downFactor) + 1);
    const out = new Int16Array(Math.max(0, Math.min(limit, estimate)));
    let count = 0;
    let { inputIndex, phase } = this;
    while (count < out.length) {
      const first = inputIndex - this.tapsBefore;
      if (first + taps > available) break;
      const offset = first - pendingStart;
      const base = phase * taps;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let tap = 0; tap < taps; tap += 4) {
        s0 += coefficients[base + tap] * pending[offset + tap];
        s1 += coefficients[base + tap + 1] * pending[offset + tap + 1];
        s2 += coefficients[base + tap + 2] * pending[offset + tap + 2];
        s3 += coefficients[base + tap + 3] * pending[offset + tap + 3];
      }
      const sum = s0 + s1 + s2 + s3;
      out[count++] = sum >= 32767 ? 32767 : sum <= -32768 ? -32768 : Math.round(sum);
      phase += downFactor;
      while (phase >= upFactor) {
        phase -= upFactor;
        inputIndex++;
      }
    }
    this.inputIndex = inputIndex;
    this.phase = phase;
    this.outputCount += count;
    // Keep only what later outputs can still reach.
    const keepFrom = Math.min(inputIndex - this.tapsBefore, available) - pendingStart;
    this.pending = pending.slice(keepFrom);
    this.pendingStart += keepFrom;
    return count === out.length ? out : out.slice(0, count);
  }
}

/**
 * One filter per phase: output at input position n + p/up is Σ coefficients[p][t] · x[n − before + t].
 * Each phase is normalized to unity gain, so silence stays silent and DC is kept.
 */
function buildPhases(phases: number, taps: number, before: number, cutoff: number, halfWidth: number): Float64Array {
  const coefficients = new Float64Array(phases * taps);
  for (let p = 0; p < phases; p++) {
    let sum = 0;
    for (let t = 0; t < taps; t++) {
      const distance = before - t + p / phases;
      const value =
        Math.abs(distance) >= halfWidth ? 0 : 2 * cutoff * sinc(2 * cutoff * distance) * kaiser(distance / halfWidth);
      coefficients[p * taps + t] = value;
      sum += value;
    }
    for (let t = 0; t < taps; t++) coefficients[p * taps + t] /= sum;
  }
  return coefficients;
}

const sinc = (x: number): number => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));

function kaiser(x: number): number {
  return besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - x * x))) / besselI0(KAISER_BETA);
}

/** The modified Bessel function of the first kind, order 0, by its power series. */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
