/**
 * The slope-constrained warp the alignment's second pass compares hypotheses with: a unit cannot be squeezed
 * below half its length nor stretched beyond twice it, while media may be passed over on the reference's pauses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CEPSTRA } from '../../src/engine/align/features';
import { slopeConstrainedCost, slopeConstrainedWarp } from '../../src/engine/align/slope-cost';

/** Frames × CEPSTRA where frame k is the one-hot vector of sound `sounds[k]` (scaled, so distinct sounds are far apart). */
const frames = (sounds: number[]): Float32Array => {
  const out = new Float32Array(sounds.length * CEPSTRA);
  sounds.forEach((sound, k) => {
    out[k * CEPSTRA + (sound % CEPSTRA)] = 3;
  });
  return out;
};

describe('slope-constrained warp', () => {
  it('matches equal sequences on the diagonal at no cost', () => {
    const sequence = frames([1, 2, 3, 4, 5, 6]);
    const warp = slopeConstrainedWarp(sequence, sequence, new Uint8Array(6), 1, true);
    assert.equal(warp.cost, 0);
    assert.deepEqual([...warp.first], [0, 1, 2, 3, 4, 5]);
    assert.deepEqual([...warp.last], [0, 1, 2, 3, 4, 5]);
  });

  it('cannot squeeze a unit into less than half its length, nor stretch it over more than twice it', () => {
    const unit = frames([1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(slopeConstrainedCost(unit, frames([1, 4, 8]), new Uint8Array(8), 1), Infinity);
    assert.ok(Number.isFinite(slopeConstrainedCost(unit, frames([1, 3, 5, 7, 8]), new Uint8Array(8), 1)));
    assert.equal(
      slopeConstrainedCost(frames([1, 2, 3]), frames([1, 1, 1, 2, 2, 2, 3, 3]), new Uint8Array(3), 1),
      Infinity,
    );
  });

  it('passes over media the reference lacks on a pause, and keeps each unit on its own frames', () => {
    // Two units with a pause (sound 0) between them; the media has three frames of other speech in that pause.
    const reference = frames([1, 2, 3, 0, 4, 5, 6]);
    const media = frames([1, 2, 3, 0, 9, 10, 11, 0, 4, 5, 6]);
    const pause = Uint8Array.from([0, 0, 0, 1, 0, 0, 0]);
    const warp = slopeConstrainedWarp(reference, media, pause, 1, true);
    assert.deepEqual([...warp.first.subarray(0, 3)], [0, 1, 2]);
    assert.deepEqual([...warp.first.subarray(4)], [8, 9, 10]);
    assert.deepEqual([warp.first[3], warp.last[3]], [3, 7]);
  });
});
