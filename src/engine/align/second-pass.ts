/**
 * A second pass where the first warp shows trouble. A long stretch that one side lacks makes the warp
 * squeeze units to nothing, stretch them over speech the script lacks, or leave seconds between
 * neighbours, and its error spreads to the units beside the gap. Each such region is warped again whole,
 * between the well-placed units around it, with a slope constraint inside units (slope-cost.ts), under the
 * hypotheses its lengths allow: every unit said, media the script lacks passed over in any pause between
 * units; or, when the region's media is shorter than its units take to say, one run of units of about the
 * missing length not said, each of its frames costing what a frame matched well costs in this file. The
 * cheapest hypothesis replaces the first warp over the region. docs/alignment.md says why.
 */
import { CEPSTRA, poolFrames } from './features';
import { slopeConstrainedCost, slopeConstrainedWarp } from './slope-cost';
import { SKIP_SHARE, unrelatedDistance, type UnitSteps } from './repair-stretches';
import { STEP_PENALTY, type Warp } from './windowed-dtw';

/** A unit the warp placed over less than this share of its spoken length is suspect (it was squeezed). */
const SQUEEZED = 0.5;
/** So is one placed over more than this share, and over a second more (it was stretched). */
const STRETCHED = 1.5;
const STRETCH_EXTRA_SECONDS = 1;
/** Two neighbours this far apart have media between them that the script lacks (as in place-units.ts). */
const APART_SECONDS = 2;
/** A region reaches this far beyond its suspect units: the first warp was seen to mis-time units this far from a gap. */
const REACH_SECONDS = 15;
/** Media this much shorter than the region's units take to say means some of them were not said. */
const MISSING_SECONDS = 2;
/** A run of units not said lasts between these shares of what the region's media lacks. */
const RUN_SHARE = { from: 0.67, to: 1.5 };
/** Hypotheses are compared on 100 ms steps, then the best few on 40 ms steps (aeneas' step): fine enough to tell them apart. */
const COMPARE_POOL = 2;
const COARSE_POOL = 5;
/** How many hypotheses the coarse comparison hands to the fine one. */
const FINALISTS = 4;
/** The most cells a region's warp may hold (one byte each): a larger region is left as the first warp placed it. */
const MAX_CELLS = 16_000_000;

interface Rough {
  unit: number;
  start: number;
  end: number;
  rows: number;
}

export interface SecondPassReport {
  /** The regions warped again, as unit index ranges (end exclusive), and the units each found not said. */
  regions: Array<{ from: number; to: number; notSaid: number[] }>;
}

/**
 * Warps the suspect regions of `warp` again (in place). `units`: each unit's steps in the reference (empty
 * when left out of the rendition); `rate`: media steps per reference step overall; `stepSeconds`: seconds a step.
 */
export function secondPass(
  warp: Warp,
  units: readonly UnitSteps[],
  reference: Float32Array,
  media: Float32Array,
  rate: number,
  stepSeconds: number,
): SecondPassReport {
  const referenceSteps = reference.length / CEPSTRA;
  const mediaSteps = media.length / CEPSTRA;
  const spoken: Rough[] = [];
  units.forEach((unit, index) => {
    if (unit.end > unit.start)
      spoken.push({
        unit: index,
        start: warp.last[unit.start],
        end: warp.first[unit.end - 1] + 1,
        rows: unit.end - unit.start,
      });
  });
  // The reader's pace against the rendition's, as most units show it (the overall rate counts speech one side lacks).
  const ratios = spoken.map((unit) => (unit.end - unit.start) / unit.rows).sort((a, b) => a - b);
  const typical = ratios.length ? ratios[ratios.length >> 1] : rate;
  const suspect = spoken.map((unit, k) => {
    const span = unit.end - unit.start;
    const expected = unit.rows * typical;
    const next = spoken[k + 1];
    return (
      span < SQUEEZED * expected ||
      (span > STRETCHED * expected && span - expected > STRETCH_EXTRA_SECONDS / stepSeconds) ||
      (next !== undefined && next.start - unit.end > APART_SECONDS / stepSeconds)
    );
  });
  const reach = Math.round(REACH_SECONDS / stepSeconds);
  const regions = suspectRegions(spoken, suspect, reach);
  if (regions.length === 0) return { regions: [] };
  // The reader's pace where the warp had no trouble: the region's lengths are judged by it.
  const calm = spoken.filter((_, k) => !regions.some((region) => k >= region.from && k < region.to));
  // With no unit placed without trouble there is no good match to price a unit not said by, and "every unit
  // said" would always win: squeezed into media too short for them, units would all pass as found. The first
  // warp's placing (which passes over what is not there) is kept instead.
  if (calm.length === 0) return { regions: [] };
  const calmRows = calm.reduce((sum, unit) => sum + unit.rows, 0);
  const pace = calmRows > 0 ? calm.reduce((sum, unit) => sum + unit.end - unit.start, 0) / calmRows : typical;
  const skipCost = SKIP_SHARE * unrelatedDistance(reference, media);
  // What a frame matched well costs and what passing over a media frame costs, at each step size: the same
  // for every region and hypothesis, so measured once a step size (each is a pass over the whole file).
  const measured = new Map<number, FramePrices>();
  const pricesAt = (pool: number): FramePrices => {
    let prices = measured.get(pool);
    if (!prices) {
      // Distances shrink as frames are pooled: the costs are measured on the pooled signals.
      const skip =
        SKIP_SHARE *
        unrelatedDistance(poolFrames(reference, referenceSteps, pool), poolFrames(media, mediaSteps, pool));
      prices = { good: goodDistance(warp, calm, units, reference, media, pool), skip };
      measured.set(pool, prices);
    }
    return prices;
  };
  const report: SecondPassReport = { regions: [] };
  for (const region of regions) {
    const before = spoken[region.from - 1];
    const after = spoken[region.to];
    const rows = { from: before ? units[before.unit].end : 0, to: after ? units[after.unit].start : referenceSteps };
    const cols = { from: before ? Math.min(mediaSteps - 1, before.end) : 0, to: after ? after.start : mediaSteps };
    if (cols.to - cols.from < 2 || (rows.to - rows.from) * (cols.to - cols.from) > MAX_CELLS) continue;
    const members = spoken.slice(region.from, region.to);
    const notSaid = chooseHypothesis(
      members,
      suspect.slice(region.from, region.to),
      units,
      rows,
      cols,
      reference,
      media,
      pace,
      pricesAt,
      stepSeconds,
    );
    if (!rewarp(warp, members, notSaid, units, rows, cols, reference, media, skipCost)) continue;
    report.regions.push({
      from: members[0].unit,
      to: members[members.length - 1].unit + 1,
      notSaid: notSaid.map((k) => members[k].unit),
    });
  }
  return report;
}

/**
 * What a frame matched well costs, on steps of `pool` frames: the median distance, over the calm
 * units' frames, between each pooled rendition frame and the pooled media frame the first warp paired it with.
 */
function goodDistance(
  warp: Warp,
  calm: readonly Rough[],
  units: readonly UnitSteps[],
  reference: Float32Array,
  media: Float32Array,
  pool: number,
): number {
  const distances: number[] = [];
  const mediaSteps = media.length / CEPSTRA;
  for (const unit of calm) {
    const rows = units[unit.unit];
    for (let r = rows.start; r + pool <= rows.end; r += pool) {
      const at = Math.min(mediaSteps - pool, Math.round((warp.first[r] + warp.last[r]) / 2));
      let sum = 0;
      for (let c = 0; c < CEPSTRA; c++) {
        let a = 0;
        let b = 0;
        for (let k = 0; k < pool; k++) {
          a += reference[(r + k) * CEPSTRA + c];
          b += media[(at + k) * CEPSTRA + c];
        }
        sum += ((a - b) / pool) ** 2;
      }
      distances.push(Math.sqrt(sum));
    }
  }
  return distances.length ? distances.sort((a, b) => a - b)[distances.length >> 1] : Infinity;
}

/** Runs of units around the suspect ones, reaching `reach` media steps beyond them, merged where they touch. */
function suspectRegions(
  spoken: readonly Rough[],
  suspect: readonly boolean[],
  reach: number,
): Array<{ from: number; to: number }> {
  const regions: Array<{ from: number; to: number }> = [];
  suspect.forEach((isSuspect, k) => {
    if (!isSuspect) return;
    let from = k;
    while (from > 0 && spoken[k].start - spoken[from - 1].end < reach) from--;
    // A unit apart from its next one makes the media after it suspect: the region runs from there.
    const after = Math.max(spoken[k].end, spoken[Math.min(spoken.length - 1, k + 1)].start);
    let to = k + 1;
    while (to < spoken.length && spoken[to].start - after < reach) to++;
    const last = regions[regions.length - 1];
    if (last && from <= last.to) last.to = Math.max(last.to, to);
    else regions.push({ from, to });
  });
  return regions;
}

type Span = { from: number; to: number };

/** Frame costs on pooled steps: a frame matched well (`good`), and a media frame passed over on a pause (`skip`). */
interface FramePrices {
  good: number;
  skip: number;
}

/** The members (by their place in `members`) not said under the best hypothesis; none when every unit was. */
function chooseHypothesis(
  members: readonly Rough[],
  suspect: readonly boolean[],
  units: readonly UnitSteps[],
  rows: Span,
  cols: Span,
  reference: Float32Array,
  media: Float32Array,
  pace: number,
  pricesAt: (pool: number) => FramePrices,
  stepSeconds: number,
): number[] {
  const lacking = (rows.to - rows.from) * pace - (cols.to - cols.from);
  const hypotheses: number[][] = [[]];
  if (lacking > MISSING_SECONDS / stepSeconds) {
    for (let a = 0; a < members.length; a++) {
      let length = 0;
      for (let b = a; b < members.length; b++) {
        // A unit not said takes its pause before it along.
        const unit = units[members[b].unit];
        const pauseBefore = unit.start - (b > 0 ? units[members[b - 1].unit].end : rows.from);
        length += (unit.end - unit.start + pauseBefore) * pace;
        if (length > RUN_SHARE.to * lacking) break;
        const touches = suspect.slice(Math.max(0, a - 1), b + 2).some(Boolean);
        if (length >= RUN_SHARE.from * lacking && touches)
          hypotheses.push(Array.from({ length: b - a + 1 }, (_, i) => a + i));
      }
    }
  }
  if (hypotheses.length === 1) return [];
  // Coarse to fine: every hypothesis on 100 ms steps, the few best again on 40 ms steps.
  const coarse = scoreHypotheses(
    hypotheses,
    COARSE_POOL,
    members,
    units,
    rows,
    cols,
    reference,
    media,
    pricesAt(COARSE_POOL),
  );
  const finalists = hypotheses
    .map((notSaid, h) => ({ notSaid, score: coarse[h] }))
    .sort((x, y) => x.score - y.score)
    .slice(0, FINALISTS)
    .map(({ notSaid }) => notSaid);
  const fine = scoreHypotheses(
    finalists,
    COMPARE_POOL,
    members,
    units,
    rows,
    cols,
    reference,
    media,
    pricesAt(COMPARE_POOL),
  );
  let best: number[] = [];
  let bestScore = Infinity;
  finalists.forEach((notSaid, h) => {
    if (fine[h] < bestScore) {
      bestScore = fine[h]!;
      best = notSaid;
    }
  });
  return best;
}

/** Each hypothesis's cost on steps of `pool` frames: the slope-constrained warp's, and each frame of a unit not said at a good match's cost and a step. */
function scoreHypotheses(
  hypotheses: readonly number[][],
  pool: number,
  members: readonly Rough[],
  units: readonly UnitSteps[],
  rows: Span,
  cols: Span,
  reference: Float32Array,
  media: Float32Array,
  prices: FramePrices,
): number[] {
  const pooledMedia = poolFrames(media.subarray(cols.from * CEPSTRA, cols.to * CEPSTRA), cols.to - cols.from, pool);
  const { good, skip: skipCost } = prices;
  return hypotheses.map((notSaid) => {
    const kept = keptRows(members, notSaid, units, rows);
    const pooled = poolFrames(gather(reference, kept.rows), kept.rows.length, pool);
    const pooledRows = pooled.length / CEPSTRA;
    if (pooledRows < 2 || pooledMedia.length < 2 * CEPSTRA) return Infinity;
    // A pooled frame is a pause's when any frame in it is.
    const pause = new Uint8Array(pooledRows);
    for (let r = 0; r < pooledRows; r++) for (let k = 0; k < pool; k++) if (!kept.inUnit[r * pool + k]) pause[r] = 1;
    const cost = slopeConstrainedCost(pooled, pooledMedia, pause, skipCost);
    // A rendition frame of a unit not said costs what a frame matched well does, and a step: leaving a unit
    // out wins only where keeping it costs more (it is forced onto speech that is not its own), and never
    // where its own speech is there (which would then be passed over at the cost of unrelated frames).
    const dropped = (rows.to - rows.from - kept.rows.length) / pool;
    return cost + dropped * (good + STEP_PENALTY);
  });
}

/** The region's reference rows without the units not said (and their pauses before them), and which rows are a unit's. */
function keptRows(
  members: readonly Rough[],
  notSaid: readonly number[],
  units: readonly UnitSteps[],
  rows: Span,
): { rows: Int32Array; inUnit: Uint8Array } {
  const dropped = new Uint8Array(rows.to - rows.from);
  const inUnit = new Uint8Array(rows.to - rows.from);
  members.forEach((member, k) => {
    const unit = units[member.unit];
    inUnit.fill(1, unit.start - rows.from, unit.end - rows.from);
    if (!notSaid.includes(k)) return;
    const pauseFrom = k > 0 ? units[members[k - 1].unit].end : rows.from;
    dropped.fill(1, pauseFrom - rows.from, unit.end - rows.from);
  });
  const kept: number[] = [];
  for (let r = 0; r < dropped.length; r++) if (!dropped[r]) kept.push(rows.from + r);
  return { rows: Int32Array.from(kept), inUnit: Uint8Array.from(kept, (row) => inUnit[row - rows.from]) };
}

function gather(reference: Float32Array, rows: Int32Array): Float32Array {
  const out = new Float32Array(rows.length * CEPSTRA);
  rows.forEach((row, i) => out.set(reference.subarray(row * CEPSTRA, (row + 1) * CEPSTRA), i * CEPSTRA));
  return out;
}

/** The region warped again at full resolution under the chosen hypothesis; units not said are held on one media step (left out). */
function rewarp(
  warp: Warp,
  members: readonly Rough[],
  notSaid: readonly number[],
  units: readonly UnitSteps[],
  rows: Span,
  cols: Span,
  reference: Float32Array,
  media: Float32Array,
  skipCost: number,
): boolean {
  const kept = keptRows(members, notSaid, units, rows);
  const width = cols.to - cols.from;
  if (kept.rows.length < 2 || kept.rows.length * width > MAX_CELLS) return false;
  const local = slopeConstrainedWarp(
    gather(reference, kept.rows),
    media.subarray(cols.from * CEPSTRA, cols.to * CEPSTRA),
    kept.inUnit.map((value) => 1 - value),
    skipCost,
    true,
  );
  if (!Number.isFinite(local.cost)) return false;
  let held = cols.from;
  let k = 0;
  for (let row = rows.from; row < rows.to; row++) {
    if (k < kept.rows.length && kept.rows[k] === row) {
      warp.first[row] = cols.from + local.first[k];
      warp.last[row] = cols.from + local.last[k];
      held = warp.last[row]!;
      k++;
    } else {
      warp.first[row] = held;
      warp.last[row] = held;
    }
  }
  warp.peakCells = Math.max(warp.peakCells, kept.rows.length * width);
  return true;
}
