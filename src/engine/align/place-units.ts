/**
 * From a warp to times: each unit's start and end go through the warping path, units the path squeezed to
 * almost nothing are reported as not found in the media, and each boundary moves into the pause it
 * falls in or next to, so cue edges sit at the speech's onsets and offsets, not at a rough warp's.
 */
import { FRAME_SECONDS } from './features';
import type { Pause } from './pauses';
import type { RenditionUnit } from './rendition';

/**
 * A unit whose media span is less than this share of its spoken length (at the overall rate) was not
 * said: the warp passed over it in a fraction of the time speaking it takes.
 */
const MIN_SPAN_SHARE = 0.3;
/** How far from the warp's estimate a boundary may move into a pause: the warp is rarely further off than this. */
const SNAP_SECONDS = 0.5;
/**
 * Two units the warp put further apart than this have media between them that the script lacks (the
 * longest pause between sentences is shorter): their edges are not one boundary, and each goes into the
 * pause beside it, not both into the longest pause between them.
 */
const APART_SECONDS = 2;

export interface PlacedWord {
  text: string;
  start: number;
  end: number;
}

export interface PlacedUnit {
  matched: boolean;
  start: number;
  end: number;
  words: PlacedWord[];
}

export interface Placement {
  /** Media frame (10 ms) for a rendition frame: where the warp first and last paired it. */
  firstFrame(renditionFrame: number): number;
  lastFrame(renditionFrame: number): number;
  /** Media frames per rendition frame overall. */
  rate: number;
  /** Seconds of media. */
  duration: number;
}

export function placeUnits(
  units: readonly RenditionUnit[],
  placement: Placement,
  pauses: readonly Pause[],
): PlacedUnit[] {
  const rough = units.map((unit) => {
    if (unit.endFrame <= unit.startFrame) return { matched: false, start: 0, end: 0 };
    // Media the script does not have is paired with one frame beside it, whole: the last media frame
    // paired with a unit's first frame, and the first paired with its last, are where its speech is.
    const start = placement.lastFrame(unit.startFrame) * FRAME_SECONDS;
    const end = (placement.firstFrame(unit.endFrame - 1) + 1) * FRAME_SECONDS;
    const expected = (unit.endFrame - unit.startFrame) * placement.rate * FRAME_SECONDS;
    return { matched: end - start >= MIN_SPAN_SHARE * expected, start, end };
  });
  const matched = rough.map((unit, i) => ({ unit, i })).filter(({ unit }) => unit.matched);
  // Boundaries: before the first matched unit, between each two, after the last.
  for (let k = 0; k <= matched.length; k++) {
    const before = matched[k - 1]?.unit;
    const after = matched[k]?.unit;
    // A unit left out between them was passed over in that gap: it is no sign of media the script lacks.
    const adjacent = k > 0 && k < matched.length && matched[k].i === matched[k - 1].i + 1;
    if (!before && !after) break;
    const from = before ? before.end : after.start;
    const to = after ? after.start : before.end;
    if (before && after && adjacent && to - from > APART_SECONDS) {
      // Media between them that the script does not have: each edge goes into the pause at its own side.
      before.end = pauseFor(pauses, from, from)?.start ?? before.end;
      after.start = pauseFor(pauses, to, to)?.end ?? after.start;
      continue;
    }
    const pause = pauseFor(pauses, Math.min(from, to), Math.max(from, to));
    if (pause) {
      if (before) before.end = pause.start;
      if (after) after.start = pause.end;
    } else if (before && after && before.end > after.start) {
      const middle = (before.end + after.start) / 2;
      before.end = middle;
      after.start = middle;
    }
  }
  return rough.map((unit, i) => {
    if (!unit.matched) return { matched: false, start: 0, end: 0, words: [] };
    const source = units[i];
    const starts = source.words.map((word) =>
      Math.min(unit.end, Math.max(unit.start, placement.firstFrame(word.frame) * FRAME_SECONDS)),
    );
    if (starts.length) starts[0] = unit.start;
    for (let w = 1; w < starts.length; w++) starts[w] = Math.max(starts[w], starts[w - 1]);
    const words = source.words.map((word, w) => ({
      text: word.text,
      start: starts[w],
      end: w + 1 < starts.length ? starts[w + 1] : unit.end,
    }));
    return { matched: true, start: unit.start, end: unit.end, words };
  });
}

/** The pause a boundary belongs in: the one overlapping the warp's gap [from, to] the most, else the nearest within SNAP_SECONDS. */
function pauseFor(pauses: readonly Pause[], from: number, to: number): Pause | undefined {
  let best: Pause | undefined;
  let bestScore = -Infinity;
  for (const pause of pauses) {
    if (pause.end < from - SNAP_SECONDS) continue;
    if (pause.start > to + SNAP_SECONDS) break;
    const overlap = Math.min(to, pause.end) - Math.max(from, pause.start);
    // Overlap counts as it is; a pause beside the gap scores minus its distance.
    const score = overlap;
    if (score > bestScore) {
      bestScore = score;
      best = pause;
    }
  }
  return best;
}
