/**
 * The low-pass filter of a resampler at a fixed rational ratio up/down, designed once: a Kaiser-windowed
 * sinc cut into `up` phases, and the order in which outputs visit them. Output n lies at input position
 * n · down / up; its phase is (n · down) mod up, so the phases (and how far the input moves between two
 * outputs) repeat every `up` outputs, and a resampler only looks them up.
 */

/** Zero crossings of the sinc on each side of the centre: longer means a sharper low-pass. */
const ZERO_CROSSINGS = 16;
/** The low-pass cut-off as a fraction of the lower Nyquist frequency, leaving room for the roll-off. */
const CUTOFF = 0.92;
const KAISER_BETA = 8.6;

export interface PolyphaseFilter {
  readonly upFactor: number;
  readonly downFactor: number;
  /** Taps per phase (a multiple of four; the extra taps are zero). */
  readonly taps: number;
  /** Taps before an output's input position: its first tap reads input `inputIndex − tapsBefore`. */
  readonly tapsBefore: number;
  /** Output k of a cycle of `upFactor` outputs: Σ coefficients[phaseOf[k] · taps + t] · x[first + t]. */
  readonly coefficients: Float64Array;
  readonly phaseOf: Int32Array;
  /** How many input samples the first tap moves after output k of the cycle. */
  readonly advance: Int32Array;
}

export function designPolyphaseFilter(inputRate: number, outputRate: number): PolyphaseFilter {
  for (const rate of [inputRate, outputRate]) {
    if (!Number.isInteger(rate) || rate <= 0)
      throw new TypeError(`Expected a positive integer sample rate, got ${rate}`);
  }
  const divisor = gcd(inputRate, outputRate);
  const upFactor = outputRate / divisor;
  const downFactor = inputRate / divisor;
  // Cut-off in cycles per input sample, below the Nyquist frequency of the lower rate.
  const cutoff = 0.5 * Math.min(1, outputRate / inputRate) * CUTOFF;
  const halfWidth = ZERO_CROSSINGS / (2 * cutoff);
  const tapsBefore = Math.ceil(halfWidth) - 1;
  const taps = Math.ceil((tapsBefore + Math.ceil(halfWidth) + 1) / 4) * 4;
  const phaseOf = new Int32Array(upFactor);
  const advance = new Int32Array(upFactor);
  let phase = 0;
  for (let k = 0; k < upFactor; k++) {
    phaseOf[k] = phase;
    phase += downFactor;
    advance[k] = Math.floor(phase / upFactor);
    phase %= upFactor;
  }
  return {
    upFactor,
    downFactor,
    taps,
    tapsBefore,
    coefficients: buildPhases(upFactor, taps, tapsBefore, cutoff, halfWidth),
    phaseOf,
    advance,
  };
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
