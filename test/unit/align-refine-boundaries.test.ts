import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlacedUnit } from '../../src/engine/align/place-units';
import {
  pairWords,
  REFINE_BOUND_SECONDS,
  refineBoundaries,
  type HeardWord,
  type Recognize,
} from '../../src/engine/align/refine-boundaries';

/** A cue as the warp placed it, its words spread evenly over it. */
function cue(text: string, start: number, end: number): PlacedUnit {
  const words = text.split(' ');
  const step = (end - start) / words.length;
  return {
    matched: true,
    start,
    end,
    words: words.map((word, w) => ({ text: word, start: start + w * step, end: start + (w + 1) * step })),
  };
}

/** The test double: a recognizer that hears the given words, and says which stretches it was asked about. */
function hearing(words: HeardWord[]): { recognize: Recognize; asked: Array<[number, number]> } {
  const asked: Array<[number, number]> = [];
  return {
    asked,
    recognize: async (start, end) => {
      asked.push([start, end]);
      return words.filter((word) => word.start >= start && word.end <= end);
    },
  };
}

describe("refining aligned boundaries with a recognizer's word times", () => {
  const units = [cue('The cat sat down.', 1.0, 3.0), cue('It was warm.', 3.6, 5.0)];

  it("moves a boundary to the recognizer's time where its word agrees, within the bound", async () => {
    const { recognize } = hearing([
      { text: 'the', start: 1.12, end: 1.3 },
      { text: 'cat', start: 1.35, end: 1.7 },
      { text: 'sat', start: 1.8, end: 2.2 },
      { text: 'down', start: 2.3, end: 2.85 },
      { text: 'It', start: 3.5, end: 3.7 },
      { text: 'was', start: 3.75, end: 4.0 },
      { text: 'warm', start: 4.1, end: 4.9 },
    ]);
    const refined = await refineBoundaries(units, 6, recognize);
    assert.deepEqual(
      refined.units.map((u) => [u.start, u.end]),
      [
        [1.12, 2.85],
        [3.5, 4.9],
      ],
    );
    assert.equal(refined.movedBoundaries, 4);
    assert.equal(refined.agreedWords, 7);
    assert.deepEqual(
      refined.units[0].words.map((w) => w.start),
      [1.12, 1.35, 1.8, 2.3],
    );
    assert.deepEqual(
      refined.units.map((u) => u.words.map((w) => w.text)),
      units.map((u) => u.words.map((w) => w.text)),
    );
  });

  it('leaves a boundary where the recognizer heard another word there, or is further off than the bound', async () => {
    const { recognize } = hearing([
      // "A" instead of "The": the start stays; "down" agrees but 0.5 s late: the end stays.
      { text: 'A', start: 1.1, end: 1.3 },
      { text: 'cat', start: 1.35, end: 1.7 },
      { text: 'sat', start: 1.8, end: 2.2 },
      { text: 'down', start: 2.6, end: 3.0 + REFINE_BOUND_SECONDS + 0.2 },
      // A word the script does not have before "It", and "warm" misheard as "worm".
      { text: 'um', start: 3.3, end: 3.5 },
      { text: 'it', start: 3.7, end: 3.8 },
      { text: 'was', start: 3.85, end: 4.0 },
      { text: 'worm', start: 4.1, end: 4.8 },
    ]);
    const refined = await refineBoundaries(units, 6, recognize);
    assert.deepEqual(
      refined.units.map((u) => [u.start, u.end]),
      [
        [1.0, 3.0],
        [3.7, 5.0],
      ],
    );
    assert.equal(refined.movedBoundaries, 1);
    // The cue that kept its boundaries still had its agreeing inner words re-timed, inside it.
    assert.deepEqual(
      refined.units[0].words.map((w) => w.start),
      [1.0, 1.35, 1.8, 2.6],
    );
  });

  it('never lets cues overlap, nor changes their number, order or texts', async () => {
    // "down" ends later (agreed, within the bound): the first cue's end moves to 3.25. "It" then starts
    // before that end (agreed, within the bound of 3.3): that start stays.
    const close = [cue('The cat sat down.', 1.0, 3.0), cue('It was warm.', 3.3, 5.0)];
    const { recognize } = hearing([
      { text: 'down', start: 2.5, end: 3.25 },
      { text: 'It', start: 3.1, end: 3.6 },
    ]);
    const refined = await refineBoundaries(close, 6, recognize);
    assert.deepEqual(
      refined.units.map((u) => [u.start, u.end]),
      [
        [1.0, 3.25],
        [3.3, 5.0],
      ],
    );
    assert.deepEqual(
      refined.units.map((u) => u.words.map((w) => w.text)),
      close.map((u) => u.words.map((w) => w.text)),
    );
    for (const unit of refined.units)
      for (const word of unit.words)
        assert.ok(word.start >= unit.start && word.end <= unit.end && word.start <= word.end);
  });

  it('skips cues the aligner did not find and hears the media in windows around the found ones', async () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      i === 5 ? { matched: false, start: 0, end: 0, words: [] } : cue('one two three', i * 5, i * 5 + 4),
    );
    const { recognize, asked } = hearing([]);
    const refined = await refineBoundaries(many, 60, recognize);
    assert.deepEqual(refined.units, many);
    assert.ok(asked.length >= 2, JSON.stringify(asked));
    for (const [from, to] of asked) assert.ok(to - from <= 30, `${from}–${to}`);
  });

  it('pairs words by text, tolerating missing, extra and misheard ones', () => {
    assert.deepEqual(pairWords(['the', 'cat', 'sat', 'down'], ['a', 'cat', 'um', 'sat', 'down']), [-1, 1, 3, 4]);
    assert.deepEqual(pairWords(['one', 'two'], []), [-1, -1]);
  });
});
