/**
 * The cost of the best warp of a reference onto media, corner to corner, where a unit's frames may be
 * neither squeezed nor stretched beyond a factor of 2 (steps of slope 1/2, 1 and 2 only: Sakoe and Chiba's
 * first slope constraint), while on the reference's pauses media may be passed over, and the pause itself
 * squeezed, freely. The second pass (second-pass.ts) compares hypotheses by it: an unconstrained warp can
 * squeeze a unit that was never said onto a frame that resembles everything a little, almost for free, so
 * it cannot tell such a unit from one that was said. Only the cost is computed: three rows are held.
 */
import { CEPSTRA } from './features';
import { STEP_PENALTY } from './windowed-dtw';

/**
 * `reference` (n frames) against `media` (m frames), both frames × CEPSTRA; `pause[i]` marks the reference's
 * pause frames; a media frame passed over on a pause costs at most `skipCost` (and the step penalty).
 */
export function slopeConstrainedCost(
  reference: Float32Array,
  media: Float32Array,
  pause: Uint8Array,
  skipCost: number,
): number {
  return slopeConstrainedWarp(reference, media, pause, skipCost, false).cost;
}

export interface SlopeWarp {
  cost: number;
  /** For each reference frame, the first and last media frame the path pairs it with (when asked for). */
  first: Int32Array;
  last: Int32Array;
}

const DIAGONAL = 0;
const STRETCH = 1;
const SQUEEZE = 2;
const HOLD_REFERENCE = 3;
const HOLD_MEDIA = 4;

/** As slopeConstrainedCost, and the path when `withPath` (one byte a cell: n × m). */
export function slopeConstrainedWarp(
  reference: Float32Array,
  media: Float32Array,
  pause: Uint8Array,
  skipCost: number,
  withPath: boolean,
): SlopeWarp {
  const n = reference.length / CEPSTRA;
  const m = media.length / CEPSTRA;
  const first = new Int32Array(withPath ? n : 0);
  const last = new Int32Array(withPath ? n : 0);
  if (n === 0 || m === 0) return { cost: Infinity, first, last };
  const steps = withPath ? new Uint8Array(n * m) : null;
  let older = new Float64Array(m).fill(Infinity);
  let previous = new Float64Array(m).fill(Infinity);
  let current = new Float64Array(m);
  let previousDistance = new Float64Array(m);
  let distance = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let sum = 0;
      for (let c = 0; c < CEPSTRA; c++) {
        const d = reference[i * CEPSTRA + c] - media[j * CEPSTRA + c];
        sum += d * d;
      }
      distance[j] = Math.sqrt(sum);
    }
    const isPause = pause[i] === 1;
    for (let j = 0; j < m; j++) {
      const d = distance[j];
      if (i === 0 && j === 0) {
        current[0] = d;
        continue;
      }
      // Symmetric weights: every path weighs as many rows plus columns as it covers.
      let best = i > 0 && j > 0 ? previous[j - 1] + 2 * d : Infinity;
      let step = DIAGONAL;
      if (i > 0 && j > 1) {
        const cost = previous[j - 2] + 2 * distance[j - 1] + d;
        if (cost < best) {
          best = cost;
          step = STRETCH;
        }
      }
      if (i > 1 && j > 0) {
        const cost = older[j - 1] + 2 * previousDistance[j] + d;
        if (cost < best) {
          best = cost;
          step = SQUEEZE;
        }
      }
      if (isPause && j > 0) {
        const cost = current[j - 1] + Math.min(d, skipCost) + STEP_PENALTY;
        if (cost < best) {
          best = cost;
          step = HOLD_REFERENCE;
        }
      }
      if (isPause && i > 0) {
        const cost = previous[j] + d + STEP_PENALTY;
        if (cost < best) {
          best = cost;
          step = HOLD_MEDIA;
        }
      }
      current[j] = best;
      if (steps) steps[i * m + j] = step;
    }
    [older, previous, current] = [previous, current, older];
    [previousDistance, distance] = [distance, previousDistance];
  }
  const cost = previous[m - 1];
  if (!steps || !Number.isFinite(cost)) return { cost, first, last };
  first.fill(-1);
  last.fill(-1);
  const visit = (row: number, col: number): void => {
    if (last[row] === -1) last[row] = col;
    first[row] = col;
  };
  let i = n - 1;
  let j = m - 1;
  visit(i, j);
  while (i > 0 || j > 0) {
    const step = steps[i * m + j];
    if (step === STRETCH) {
      visit(i, j - 1);
      i--;
      j -= 2;
    } else if (step === SQUEEZE) {
      visit(i - 1, j);
      i -= 2;
      j--;
    } else if (step === HOLD_REFERENCE) j--;
    else if (step === HOLD_MEDIA) i--;
    else {
      i--;
      j--;
    }
    visit(i, j);
  }
  return { cost, first, last };
}
