/**
 * The fine pass of a two-resolution warp: dynamic time warping restricted to a band around a coarse path
 * (the FastDTW idea), so its cost and memory grow with the length times the band's width, never with the
 * length squared. Memory: one byte of step per band cell.
 */
import { CEPSTRA } from './features';
import { STEP_PENALTY, type Warp } from './windowed-dtw';

/**
 * Where the path may pass over media the reference does not have: on `rows` (the rendition's pauses
 * between units), a media frame held costs at most `cost`, so speech missing from the script is passed
 * over in the pause between the units around it, not soaked up by a neighbour's speech.
 */
export interface Skip {
  rows: Uint8Array;
  cost: number;
}

const DIAGONAL = 0;
const FROM_ABOVE = 1;
const FROM_LEFT = 2;

/**
 * Warps `reference` against `media` (frames × CEPSTRA) inside the band that `coarse` (a warp of the same
 * signals pooled by `factor`) projects, widened by `radius` fine frames on each side.
 */
export function warpInBand(
  reference: Float32Array,
  media: Float32Array,
  coarse: Warp,
  factor: number,
  radius: number,
  skip?: Skip,
): Warp {
  const n = reference.length / CEPSTRA;
  const m = media.length / CEPSTRA;
  const coarseRows = coarse.first.length;
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const row = Math.min(coarseRows - 1, Math.floor(i / factor));
    lo[i] = Math.max(0, coarse.first[row] * factor - radius);
    hi[i] = Math.min(m - 1, (coarse.last[row] + 1) * factor - 1 + radius);
  }
  // The band must start at (0, 0), move only forward, and let each row reach the next.
  lo[0] = 0;
  for (let i = 1; i < n; i++) lo[i] = Math.max(lo[i], lo[i - 1]);
  for (let i = n - 2; i >= 0; i--) hi[i] = Math.min(hi[i], hi[i + 1]);
  for (let i = 1; i < n; i++) if (lo[i] > hi[i - 1] + 1) lo[i] = hi[i - 1] + 1;
  for (let i = 0; i < n; i++) hi[i] = Math.max(hi[i], lo[i]);
  const offsets = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + hi[i] - lo[i] + 1;
  const cells = offsets[n];
  const steps = new Uint8Array(cells);
  let previous = new Float64Array(0);
  let current = new Float64Array(0);
  for (let i = 0; i < n; i++) {
    const from = lo[i];
    const width = hi[i] - from + 1;
    if (current.length < width) current = new Float64Array(width);
    const prevFrom = i > 0 ? lo[i - 1] : 0;
    const prevTo = i > 0 ? hi[i - 1] : -1;
    const base = offsets[i];
    for (let k = 0; k < width; k++) {
      const j = from + k;
      let sum = 0;
      for (let c = 0; c < CEPSTRA; c++) {
        const d = reference[i * CEPSTRA + c] - media[j * CEPSTRA + c];
        sum += d * d;
      }
      const d = Math.sqrt(sum);
      if (i === 0 && j === 0) {
        current[k] = d;
        continue;
      }
      let best = Infinity;
      let step = DIAGONAL;
      if (i > 0 && j - 1 >= prevFrom && j - 1 <= prevTo) best = previous[j - 1 - prevFrom] + 2 * d;
      if (i > 0 && j >= prevFrom && j <= prevTo && previous[j - prevFrom] + d + STEP_PENALTY < best) {
        best = previous[j - prevFrom] + d + STEP_PENALTY;
        step = FROM_ABOVE;
      }
      const held = skip && skip.rows[i] ? Math.min(d, skip.cost) : d;
      if (k > 0 && current[k - 1] + held + STEP_PENALTY < best) {
        best = current[k - 1] + held + STEP_PENALTY;
        step = FROM_LEFT;
      }
      current[k] = best;
      steps[base + k] = step;
    }
    [previous, current] = [current, previous];
  }
  // The end the coarse pass chose, within the band (the media's end when the coarse pass ended there).
  let j = lo[n - 1];
  let endCost = Infinity;
  const endsWithMedia = coarse.last[coarseRows - 1] * factor + factor - 1 >= m - 1;
  for (let k = endsWithMedia ? hi[n - 1] - lo[n - 1] : 0; k <= hi[n - 1] - lo[n - 1]; k++) {
    const cost = previous[k] / (n + lo[n - 1] + k + 1);
    if (cost < endCost) {
      endCost = cost;
      j = lo[n - 1] + k;
    }
  }
  const first = new Int32Array(n).fill(-1);
  const last = new Int32Array(n).fill(-1);
  const distance = new Float32Array(n);
  const counts = new Int32Array(n);
  let i = n - 1;
  for (;;) {
    if (last[i] === -1) last[i] = j;
    first[i] = j;
    let sum = 0;
    for (let c = 0; c < CEPSTRA; c++) {
      const d = reference[i * CEPSTRA + c] - media[j * CEPSTRA + c];
      sum += d * d;
    }
    distance[i] += Math.sqrt(sum);
    counts[i]++;
    if (i === 0 && j === 0) break;
    const step = steps[offsets[i] + j - lo[i]];
    if (step === FROM_LEFT) j--;
    else if (step === FROM_ABOVE) i--;
    else {
      i--;
      j--;
    }
  }
  for (let row = 0; row < n; row++) distance[row] /= Math.max(1, counts[row]);
  return { first, last, distance, peakCells: Math.max(coarse.peakCells, cells) };
}
