/**
 * The aligner's spectral features: MFCCs every 10 ms (25 ms Hann window, 40 mel bands over 100–7600 Hz,
 * 12 cepstral coefficients without c0, so loudness does not count), normalized per signal to zero mean and
 * unit variance, so a synthetic voice and a recorded one are compared by the shape of their spectra. Also
 * each frame's energy in dB, for finding pauses. Works at any sample rate: the bands are in hertz.
 */
import { Fft } from './fft';

export const FRAME_SECONDS = 0.01;
const WINDOW_SECONDS = 0.025;
const MEL_BANDS = 40;
export const CEPSTRA = 12;
const LOW_HZ = 100;
const HIGH_HZ = 7600;
/** Below this power (about −100 dBFS) a band counts as silent: digital silence must not give log(0). */
const POWER_FLOOR = 1e-10;

export interface Features {
  /** Frames × CEPSTRA, row after row. */
  cepstra: Float32Array;
  /** Each frame's energy in dB relative to full scale. */
  energyDb: Float32Array;
  frames: number;
}

const mel = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
const hzOfMel = (m: number): number => 700 * (10 ** (m / 2595) - 1);

function melFilters(sampleRate: number, fftSize: number): Array<{ from: number; weights: Float64Array }> {
  const high = Math.min(HIGH_HZ, sampleRate / 2);
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) =>
    hzOfMel(mel(LOW_HZ) + ((mel(high) - mel(LOW_HZ)) * i) / (MEL_BANDS + 1)),
  );
  const binHz = sampleRate / fftSize;
  return Array.from({ length: MEL_BANDS }, (_, band) => {
    const [left, centre, right] = [edges[band], edges[band + 1], edges[band + 2]];
    const from = Math.ceil(left / binHz);
    const to = Math.floor(right / binHz);
    const weights = new Float64Array(Math.max(0, to - from + 1));
    for (let bin = from; bin <= to; bin++) {
      const hz = bin * binHz;
      weights[bin - from] = hz <= centre ? (hz - left) / (centre - left) : (right - hz) / (right - centre);
    }
    return { from, weights };
  });
}

/** The number of 10 ms frames of `sampleCount` samples. */
export function frameCount(sampleCount: number, sampleRate: number): number {
  return Math.max(0, Math.floor(sampleCount / (sampleRate * FRAME_SECONDS)));
}

/** MFCCs and frame energies of mono 16-bit samples; frame k is centred at k·10 ms + 5 ms. */
export function computeFeatures(
  samples: Int16Array,
  sampleRate: number,
  options: { normalize?: boolean } = {},
): Features {
  const windowLength = Math.round(sampleRate * WINDOW_SECONDS);
  let fftSize = 1;
  while (fftSize < windowLength) fftSize <<= 1;
  const fft = new Fft(fftSize);
  const filters = melFilters(sampleRate, fftSize);
  const hann = Float64Array.from(
    { length: windowLength },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (windowLength - 1)),
  );
  const dct = Float64Array.from({ length: CEPSTRA * MEL_BANDS }, (_, i) => {
    const c = Math.floor(i / MEL_BANDS) + 1;
    return Math.cos((Math.PI * c * ((i % MEL_BANDS) + 0.5)) / MEL_BANDS);
  });
  const frames = frameCount(samples.length, sampleRate);
  const cepstra = new Float32Array(frames * CEPSTRA);
  const energyDb = new Float32Array(frames);
  const re = new Float64Array(fftSize);
  const im = new Float64Array(fftSize);
  const logMel = new Float64Array(MEL_BANDS);
  const hop = sampleRate * FRAME_SECONDS;
  for (let frame = 0; frame < frames; frame++) {
    const centre = Math.round((frame + 0.5) * hop);
    const start = centre - (windowLength >> 1);
    re.fill(0);
    im.fill(0);
    let energy = 0;
    for (let i = 0; i < windowLength; i++) {
      const at = start + i;
      const value = at >= 0 && at < samples.length ? samples[at] / 32768 : 0;
      energy += value * value;
      re[i] = value * hann[i];
    }
    energyDb[frame] = 10 * Math.log10(energy / windowLength + POWER_FLOOR);
    fft.transform(re, im);
    for (let band = 0; band < MEL_BANDS; band++) {
      const { from, weights } = filters[band];
      let power = 0;
      for (let k = 0; k < weights.length; k++) power += weights[k] * (re[from + k] ** 2 + im[from + k] ** 2);
      logMel[band] = Math.log(power / fftSize + POWER_FLOOR);
    }
    for (let c = 0; c < CEPSTRA; c++) {
      let sum = 0;
      for (let band = 0; band < MEL_BANDS; band++) sum += dct[c * MEL_BANDS + band] * logMel[band];
      cepstra[frame * CEPSTRA + c] = sum;
    }
  }
  if (options.normalize !== false) normalizeCepstra(cepstra, frames);
  return { cepstra, energyDb, frames };
}

/** Zero mean and unit variance per coefficient over the whole signal. */
export function normalizeCepstra(cepstra: Float32Array, frames: number): void {
  if (frames === 0) return;
  for (let c = 0; c < CEPSTRA; c++) {
    let sum = 0;
    let squares = 0;
    for (let f = 0; f < frames; f++) {
      const v = cepstra[f * CEPSTRA + c];
      sum += v;
      squares += v * v;
    }
    const mean = sum / frames;
    const deviation = Math.sqrt(Math.max(1e-12, squares / frames - mean * mean));
    for (let f = 0; f < frames; f++) cepstra[f * CEPSTRA + c] = (cepstra[f * CEPSTRA + c] - mean) / deviation;
  }
}

/** Averages every `factor` frames into one (a coarser time step for dynamic time warping). */
export function poolFrames(cepstra: Float32Array, frames: number, factor: number): Float32Array {
  const pooled = Math.floor(frames / factor);
  const out = new Float32Array(pooled * CEPSTRA);
  for (let p = 0; p < pooled; p++) {
    for (let c = 0; c < CEPSTRA; c++) {
      let sum = 0;
      for (let k = 0; k < factor; k++) sum += cepstra[(p * factor + k) * CEPSTRA + c];
      out[p * CEPSTRA + c] = sum / factor;
    }
  }
  return out;
}
