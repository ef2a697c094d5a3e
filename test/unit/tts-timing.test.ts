import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitCue } from '../../src/engine/tts/cue-fitting';
import { planDuration } from '../../src/engine/tts/duration-plan';

describe('fitCue', () => {
  it('starts speech that fits at the cue start, unchanged', () => {
    assert.deepEqual(fitCue({ start: 1, end: 3, nextStart: 4 }, 1.5, 0, 2), {
      at: 1,
      speedFactor: 1,
      seconds: 1.5,
      borrowedSeconds: 0,
      overran: false,
      overrunSeconds: 0,
    });
  });

  it('lets longer speech borrow the silence before the next cue before speeding it up', () => {
    const borrowed = fitCue({ start: 1, end: 2, nextStart: 3 }, 1.8, 0, 2);
    assert.equal(borrowed.speedFactor, 1);
    assert.ok(Math.abs(borrowed.borrowedSeconds - 0.8) < 1e-9);
    const faster = fitCue({ start: 1, end: 2, nextStart: 3 }, 3, 0, 2);
    assert.equal(faster.speedFactor, 1.5);
    assert.equal(faster.seconds, 2);
    assert.equal(faster.overran, false);
  });

  it('overruns only beyond the speed limit, and reports by how much', () => {
    const over = fitCue({ start: 1, end: 2, nextStart: 2.5 }, 4, 0, 2);
    assert.deepEqual([over.speedFactor, over.seconds, over.overran, over.overrunSeconds], [2, 2, true, 0.5]);
  });

  it('never starts before the previous speech ended, and the last cue borrows nothing', () => {
    const late = fitCue({ start: 2, end: 4 }, 1, 2.5, 2);
    assert.equal(late.at, 2.5);
    const last = fitCue({ start: 2, end: 3 }, 1.5, 0, 2);
    assert.equal(last.speedFactor, 1.5);
    const swallowed = fitCue({ start: 1, end: 2, nextStart: 3 }, 1, 3.5, 2);
    assert.deepEqual([swallowed.at, swallowed.speedFactor, swallowed.overran], [3.5, 2, true]);
  });
});

describe('planDuration', () => {
  it('stretches to the exact target when the total speed stays within 0.5 to 2', () => {
    const plan = planDuration(24_000 * 4, 24_000, 5, 1);
    assert.equal(plan.stretchFactor, 0.8);
    assert.equal(plan.targetSamples, 120_000);
    assert.equal(plan.summary.reachedTarget, true);
  });

  it('stops at the speed limits and says the target was not reached', () => {
    const plan = planDuration(24_000 * 4, 24_000, 1, 1);
    assert.deepEqual([plan.stretchFactor, plan.targetSamples, plan.summary.reachedTarget], [2, undefined, false]);
    const withSpeed = planDuration(24_000 * 4, 24_000, 3, 1.5);
    assert.equal(withSpeed.stretchFactor, 4 / 3, 'speed 1.5 × 4/3 = 2');
    assert.equal(withSpeed.summary.reachedTarget, true);
    assert.equal(planDuration(24_000 * 4, 24_000, 20, 1).stretchFactor, 0.5);
  });

  it('does not stretch for a difference under half a percent, but still hits the length', () => {
    const plan = planDuration(100_000, 20_000, 5.01, 1);
    assert.deepEqual([plan.stretchFactor, plan.targetSamples], [1, 100_200]);
  });
});
