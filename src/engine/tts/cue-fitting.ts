/**
 * Where each subtitle cue's speech goes on the timeline. Speech starts at its cue's start time. Speech longer
 * than its slot first borrows the silence before the next cue, then is sped up (within the speed limit),
 * and only then overruns; a cue never starts before the previous speech has ended, so nothing overlaps.
 */

export interface CueSlot {
  start: number;
  end: number;
  /** Start of the next cue; undefined for the last one, which may not borrow beyond its own end. */
  nextStart?: number;
}

export interface CuePlacement {
  /** Where the speech starts (the cue's start, or later when the previous speech overran into it). */
  at: number;
  /** How much faster than spoken the speech is played (1 = unchanged). */
  speedFactor: number;
  /** Length of the placed speech, in seconds. */
  seconds: number;
  /** Time taken from the silence after the cue's own end. */
  borrowedSeconds: number;
  /** True when the speech runs past the next cue's start (or past the last cue's end). */
  overran: boolean;
  overrunSeconds: number;
}

/** Differences below a millisecond are rounding, not overruns. */
const EPSILON = 1e-3;

/**
 * Places one cue's speech of `speechSeconds`, given where the previous speech ended (`cursor`) and how
 * much faster the speech may still be made (`maxSpeedFactor` ≥ 1).
 *
 * @example fitCue({ start: 1, end: 2, nextStart: 3 }, 1.5, 0, 2) // borrows 0.5 s, speedFactor 1
 */
export function fitCue(slot: CueSlot, speechSeconds: number, cursor: number, maxSpeedFactor: number): CuePlacement {
  if (!(maxSpeedFactor >= 1)) throw new TypeError(`Expected maxSpeedFactor ≥ 1, got ${maxSpeedFactor}`);
  const at = Math.max(slot.start, cursor);
  const limit = slot.nextStart !== undefined ? Math.max(slot.nextStart, slot.end) : slot.end;
  const available = limit - at;
  let speedFactor = 1;
  if (speechSeconds > available + EPSILON) {
    speedFactor = available > 0 ? Math.min(maxSpeedFactor, speechSeconds / available) : maxSpeedFactor;
  }
  const seconds = speechSeconds / speedFactor;
  const end = at + seconds;
  const overrunSeconds = Math.max(0, end - limit);
  return {
    at,
    speedFactor,
    seconds,
    borrowedSeconds: Math.max(0, Math.min(end, limit) - Math.max(slot.end, at)),
    overran: overrunSeconds > EPSILON,
    overrunSeconds: overrunSeconds > EPSILON ? overrunSeconds : 0,
  };
}
