import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlacedUnit } from '../../src/engine/align/place-units';
import { checkAgainstPrior } from '../../src/engine/align/timing-prior';

const placed = (start: number, end: number): PlacedUnit => ({ matched: true, start, end, words: [] });

describe("a subtitle file's own times as the prior of its re-timing", () => {
  // Twenty cues of 2 s every 3 s, re-timed 0.8 s later with ±0.25 s of jitter.
  const prior = Array.from({ length: 20 }, (_, i) => ({ start: 3 * i, end: 3 * i + 2 }));
  const jitter = (i: number): number => (i % 3) * 0.25 - 0.25;
  const retimed = prior.map((cue, i) => placed(cue.start + 0.8 + jitter(i), cue.end + 0.8 - jitter(i)));

  it('keeps every cue that moved about as its neighbours moved', () => {
    assert.deepEqual(checkAgainstPrior(retimed, prior), retimed);
  });

  it("reports a cue the warp moved onto another line's speech, and keeps the rest", () => {
    const slipped = retimed.map((unit, i) => (i === 7 ? placed(unit.start + 3, unit.end + 3) : unit));
    const checked = checkAgainstPrior(slipped, prior);
    assert.equal(checked[7].matched, false);
    assert.deepEqual(
      checked.filter((_, i) => i !== 7),
      slipped.filter((_, i) => i !== 7),
    );
  });

  it('follows a file that drifts: each cue is judged by its neighbours, not by one shift for all', () => {
    const drifting = prior.map((cue) => placed(cue.start * 1.05 + 0.8, cue.end * 1.05 + 0.8));
    assert.deepEqual(checkAgainstPrior(drifting, prior), drifting);
  });

  it('changes nothing for a script without times, and leaves cues already not found as they are', () => {
    assert.deepEqual(checkAgainstPrior(retimed, []), retimed);
    const missing = retimed.map((unit, i) => (i === 3 ? { matched: false, start: 0, end: 0, words: [] } : unit));
    assert.deepEqual(checkAgainstPrior(missing, prior), missing);
  });
});
