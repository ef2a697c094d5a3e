/**
 * A second look where the warp stretched units far beyond their spoken length: that happens when the media
 * has speech the script lacks (a paragraph left out of it), which the coarse warp spreads over the units
 * around the gap instead of passing over it, so a neighbour of the gap is mis-timed. Each such stretch,
 * with one unit either side, is warped again between the well-placed units around it, at full resolution
 * and without a band, where a media frame held on a pause between units costs no more than an unrelated
 * frame: the missing speech then lands in one pause, and the units keep their own speech.
 */
import { warpInBand, type Skip } from './band-dtw';
import { CEPSTRA } from './features';
import type { Warp } from './windowed-dtw';

/** A unit spread over more than twice its spoken length, and over a second more, was stretched over speech it does not have. */
const STRETCH_FACTOR = 2;
const STRETCH_EXTRA_SECONDS = 1;
/**
 * What a media frame held on a pause costs, as a share of the typical distance of unrelated frames: below
 * it, so missing speech is cheaper passed over in a pause than soaked up by a speech frame that resembles
 * everything a little; above a good match (about 0.6 of it), so matching speech is never passed over.
 */
export const SKIP_SHARE = 0.8;
/** The most cells a repair may hold (one byte each): a stretch too long for this is left as it is. */
const MAX_CELLS = 16_000_000;

export interface UnitSteps {
  /** The unit's steps in the warped reference, end exclusive; equal when the unit was left out. */
  start: number;
  end: number;
}

/** The typical distance of unrelated frames (a median over pairs spread evenly over both signals). */
export function unrelatedDistance(reference: Float32Array, media: Float32Array): number {
  const n = reference.length / CEPSTRA;
  const m = media.length / CEPSTRA;
  const pairs = 2048;
  const distances: number[] = [];
  for (let k = 0; k < pairs; k++) {
    const i = Math.floor((((k * 7919) % pairs) / pairs) * n);
    const j = Math.floor((k / pairs) * m);
    let sum = 0;
    for (let c = 0; c < CEPSTRA; c++) sum += (reference[i * CEPSTRA + c] - media[j * CEPSTRA + c]) ** 2;
    distances.push(Math.sqrt(sum));
  }
  return distances.sort((a, b) => a - b)[pairs >> 1];
}

/**
 * The warp with its stretches warped again (in place; also returned). `rate`: media steps per reference
 * step overall; `stepSeconds`: seconds per step.
 */
export function repairStretches(
  warp: Warp,
  units: readonly UnitSteps[],
  reference: Float32Array,
  media: Float32Array,
  rate: number,
  stepSeconds: number,
): Warp {
  const n = reference.length / CEPSTRA;
  const m = media.length / CEPSTRA;
  const spoken = units.map((unit, index) => ({ ...unit, index })).filter((unit) => unit.end > unit.start);
  const stretched = spoken.map((unit) => {
    const span = warp.first[unit.end - 1] - warp.last[unit.start];
    const expected = (unit.end - unit.start) * rate;
    return span > STRETCH_FACTOR * expected && span - expected > STRETCH_EXTRA_SECONDS / stepSeconds;
  });
  let cost: number | undefined;
  for (let k = 0; k < spoken.length; k++) {
    if (!stretched[k]) continue;
    let last = k;
    while (last + 1 < spoken.length && stretched[last + 1]) last++;
    // One unit either side is part of the repair; the units beyond them are its anchors.
    const from = Math.max(0, k - 1);
    const to = Math.min(spoken.length - 1, last + 1);
    const rowFrom = from > 0 ? spoken[from - 1].end : 0;
    const rowTo = to + 1 < spoken.length ? spoken[to + 1].start : n;
    const colFrom = rowFrom > 0 ? Math.min(m - 1, warp.last[rowFrom - 1] + 1) : 0;
    const colTo = rowTo < n ? Math.max(colFrom + 1, warp.first[rowTo]) : m;
    const rows = rowTo - rowFrom;
    const cols = colTo - colFrom;
    k = last;
    if (rows < 2 || cols < 2 || rows * cols > MAX_CELLS) continue;
    cost ??= SKIP_SHARE * unrelatedDistance(reference, media);
    const pauses = new Uint8Array(rows).fill(1);
    for (let u = from; u <= to; u++) pauses.fill(0, spoken[u].start - rowFrom, spoken[u].end - rowFrom);
    const skip: Skip = { rows: pauses, cost };
    const whole: Warp = {
      first: new Int32Array(rows),
      last: new Int32Array(rows).fill(cols - 1),
      distance: new Float32Array(rows),
      peakCells: 0,
    };
    const local = warpInBand(
      reference.subarray(rowFrom * CEPSTRA, rowTo * CEPSTRA),
      media.subarray(colFrom * CEPSTRA, colTo * CEPSTRA),
      whole,
      1,
      0,
      skip,
    );
    for (let r = 0; r < rows; r++) {
      warp.first[rowFrom + r] = colFrom + local.first[r];
      warp.last[rowFrom + r] = colFrom + local.last[r];
      warp.distance[rowFrom + r] = local.distance[r]!;
    }
    warp.peakCells = Math.max(warp.peakCells, rows * cols);
  }
  return warp;
}
