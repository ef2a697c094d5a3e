/**
 * Dynamic time warping of a reference feature sequence (the TTS rendition) against a longer or shorter
 * one (the media) in bounded memory: the reference is taken in windows of `windowFrames`; each is warped
 * against the stretch of media it can reach from the last committed point, with an open end; the first
 * half of the window's path is committed and the next window starts where it ended. Memory is one window's
 * step matrix, whatever the length of the media (the windowed approach of Subtitle Edit's and aeneas'
 * aligners, with overlap so no window boundary is ever a guess).
 */
import { CEPSTRA } from './features';

export interface WarpOptions {
  /** Reference frames per window. */
  windowFrames: number;
  /** Media frames per reference frame expected (the overall ratio of the two lengths). */
  rate: number;
  /**
   * Media frames a window reaches beyond 1.5 times its expected length: how much media that the script
   * does not have (a paragraph left out of it) the path can pass over.
   */
  slackFrames: number;
}

export interface Warp {
  /** For each reference frame, the first and last media frame the path pairs it with. */
  first: Int32Array;
  last: Int32Array;
  /** For each reference frame, the mean distance of its path cells (how well it matched). */
  distance: Float32Array;
  /** The largest step matrix held at once, in cells (the memory bound). */
  peakCells: number;
}

/**
 * What a step that holds one side still costs beyond its frame distance: a tenth of the distance of two
 * unrelated frames (about 5 for 12 normalized coefficients), so the path stretches or squeezes only where
 * the sounds ask for it, and a line the reader never said is passed over instead of stealing its
 * neighbours' speech.
 */
export const STEP_PENALTY = 0.5;
const DIAGONAL = 0;
const FROM_ABOVE = 1;
const FROM_LEFT = 2;

function distanceAt(a: Float32Array, i: number, b: Float32Array, j: number): number {
  let sum = 0;
  const ai = i * CEPSTRA;
  const bj = j * CEPSTRA;
  for (let c = 0; c < CEPSTRA; c++) {
    const d = a[ai + c] - b[bj + c];
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/** Warps `reference` (n frames) against `media` (m frames); both are frames × CEPSTRA. */
export function warpWindowed(reference: Float32Array, media: Float32Array, options: WarpOptions): Warp {
  const n = reference.length / CEPSTRA;
  const m = media.length / CEPSTRA;
  if (!Number.isInteger(n) || !Number.isInteger(m)) throw new TypeError(`Expected whole frames of ${CEPSTRA} values`);
  if (m === 0) throw new TypeError('Expected media frames to warp against, got none');
  if (!(options.windowFrames >= 2))
    throw new TypeError(`Expected a window of at least 2 frames, got ${options.windowFrames}`);
  const first = new Int32Array(n);
  const last = new Int32Array(n);
  const distance = new Float32Array(n);
  let peakCells = 0;
  let r = 0;
  let a = 0;
  while (r < n) {
    // A short remainder joins the window before it: a window needs length to lock on to the speech.
    const rows = n - r <= options.windowFrames * 1.5 ? n - r : options.windowFrames;
    const final = r + rows === n;
    const reach = Math.ceil(rows * Math.max(0.25, options.rate) * 1.5 + options.slackFrames);
    const cols = Math.max(1, Math.min(m - a, reach));
    peakCells = Math.max(peakCells, rows * cols);
    const steps = new Uint8Array(rows * cols);
    let previous = new Float64Array(cols);
    let current = new Float64Array(cols);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const d = distanceAt(reference, r + i, media, a + j);
        if (i === 0 && j === 0) {
          current[0] = d;
          continue;
        }
        let best = Infinity;
        let step = DIAGONAL;
        if (i > 0 && j > 0) best = previous[j - 1] + 2 * d;
        if (i > 0 && previous[j] + d + STEP_PENALTY < best) {
          best = previous[j] + d + STEP_PENALTY;
          step = FROM_ABOVE;
        }
        if (j > 0 && current[j - 1] + d + STEP_PENALTY < best) {
          best = current[j - 1] + d + STEP_PENALTY;
          step = FROM_LEFT;
        }
        current[j] = best;
        steps[i * cols + j] = step;
      }
      [previous, current] = [current, previous];
    }
    // Open end: the media column where the window's last row ends best, per step of path. The last window
    // ends with the media: an open end there could leave media unmatched that the script's end was said in.
    let end = 0;
    let endCost = Infinity;
    for (let j = final && a + cols === m ? cols - 1 : 0; j < cols; j++) {
      const cost = previous[j] / (rows + j + 1);
      if (cost < endCost) {
        endCost = cost;
        end = j;
      }
    }
    const commitRows = final ? rows : Math.max(1, rows >> 1);
    let i = rows - 1;
    let j = end;
    const cellSum = new Float64Array(rows);
    const cellCount = new Int32Array(rows);
    const rowFirst = new Int32Array(rows).fill(-1);
    const rowLast = new Int32Array(rows).fill(-1);
    for (;;) {
      if (rowLast[i] === -1) rowLast[i] = j;
      rowFirst[i] = j;
      cellSum[i] += distanceAt(reference, r + i, media, a + j);
      cellCount[i]++;
      if (i === 0 && j === 0) break;
      const step = steps[i * cols + j];
      if (i === 0 || step === FROM_LEFT) j--;
      else if (j === 0 || step === FROM_ABOVE) i--;
      else {
        i--;
        j--;
      }
    }
    for (let k = 0; k < commitRows; k++) {
      first[r + k] = a + rowFirst[k];
      last[r + k] = a + rowLast[k];
      distance[r + k] = cellSum[k] / cellCount[k];
    }
    if (final) break;
    // The next window starts where the path entered its first uncommitted row.
    a = Math.min(m - 1, a + rowFirst[commitRows]);
    r += commitRows;
  }
  return { first, last, distance, peakCells };
}
