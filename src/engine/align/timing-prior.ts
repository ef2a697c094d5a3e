/**
 * When the script is a subtitle file, its own times are a prior: a re-timing moves each cue by about what
 * its neighbours moved (a file timed for another cut or frame rate is shifted and drifts slowly, piece by
 * piece). A cue the warp moved far from where its neighbours' moves put it was placed on speech that is not
 * its own (a warp that slipped on another voice, long pauses, music): it is reported as not placed, and
 * re-timing keeps its old times, rather than moving it to the wrong line's speech.
 */
import type { PlacedUnit } from './place-units';

/** Cues either side whose moves say where this one should go. */
const NEIGHBOURS = 10;
/**
 * How far a cue's move may differ from its neighbours' median move: more than any jitter of a file's own
 * timing (±0.25 s in the drifted test file), less than the length of a line, which is what a cue placed on
 * a neighbour's speech is off by.
 */
const TOLERANCE_SECONDS = 1;

export interface PriorTimes {
  start?: number;
  end?: number;
}

/** The units, with those whose move disagrees with their neighbours' set not matched. Unchanged without times. */
export function checkAgainstPrior(units: readonly PlacedUnit[], prior: readonly PriorTimes[]): PlacedUnit[] {
  const moves = units.map((unit, i) => {
    const { start, end } = prior[i] ?? {};
    if (!unit.matched || start === undefined || end === undefined) return null;
    return { start: unit.start - start, end: unit.end - end };
  });
  if (moves.every((move) => move === null)) return [...units];
  return units.map((unit, i) => {
    const move = moves[i];
    if (!move) return unit;
    const around: number[] = [];
    for (let k = Math.max(0, i - NEIGHBOURS); k <= Math.min(units.length - 1, i + NEIGHBOURS); k++) {
      const other = moves[k];
      if (k !== i && other) around.push(other.start, other.end);
    }
    if (around.length < 4) return unit;
    around.sort((a, b) => a - b);
    const expected = around[around.length >> 1];
    const off = Math.max(Math.abs(move.start - expected), Math.abs(move.end - expected));
    return off > TOLERANCE_SECONDS ? { matched: false, start: 0, end: 0, words: [] } : unit;
  });
}
