import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { warpInBand } from '../../src/engine/align/band-dtw';
import { CEPSTRA, poolFrames } from '../../src/engine/align/features';
import { warpWindowed } from '../../src/engine/align/windowed-dtw';

/** A seeded generator, so every run builds the same sequences. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** `count` distinct "sounds": random unit vectors of CEPSTRA values. */
function sounds(count: number, next: () => number): Float32Array[] {
  return Array.from({ length: count }, () => Float32Array.from({ length: CEPSTRA }, () => next() * 2 - 1));
}

/** The frames of the sounds held for the given durations, and where each sound starts. */
function sequence(
  parts: readonly Float32Array[],
  durations: readonly number[],
): { frames: Float32Array; starts: number[] } {
  const total = durations.reduce((sum, d) => sum + d, 0);
  const frames = new Float32Array(total * CEPSTRA);
  const starts: number[] = [];
  let at = 0;
  parts.forEach((part, i) => {
    starts.push(at);
    for (let k = 0; k < durations[i]; k++) frames.set(part, (at + k) * CEPSTRA);
    at += durations[i];
  });
  return { frames, starts };
}

describe('windowed dynamic time warping', () => {
  const next = random(7);
  const parts = sounds(120, next);
  const referenceDurations = parts.map(() => 3 + Math.floor(next() * 6));
  // The media says the same sounds at another, varying pace: each lasts 0.5 to 2 times as long.
  const mediaDurations = referenceDurations.map((d) => Math.max(1, Math.round(d * (0.5 + next() * 1.5))));
  const reference = sequence(parts, referenceDurations);
  const media = sequence(parts, mediaDurations);
  const rate = media.starts.at(-1)! / reference.starts.at(-1)!;

  it('maps every sound of the reference to where the media says it, across many windows', () => {
    const warp = warpWindowed(reference.frames, media.frames, { windowFrames: 60, rate, slackFrames: 30 });
    reference.starts.forEach((start, i) => assert.equal(warp.first[start], media.starts[i], `sound ${i}`));
    assert.ok(referenceDurations.reduce((a, b) => a + b) > 60 * 4, 'the test spans several windows');
  });

  it('holds one window of steps at a time, however long the sequences', () => {
    const warp = warpWindowed(reference.frames, media.frames, { windowFrames: 60, rate, slackFrames: 30 });
    // The last window may take up to half a window more (a short remainder joins it).
    assert.ok(warp.peakCells <= 90 * Math.ceil(90 * rate * 1.5 + 30), `peak ${warp.peakCells}`);
    const total = (reference.frames.length / CEPSTRA) * (media.frames.length / CEPSTRA);
    assert.ok(warp.peakCells < total / 4, `peak ${warp.peakCells} of ${total}`);
  });

  it('passes over media the reference does not have', () => {
    // Twenty sounds of the media are missing from the reference (a paragraph left out of the script).
    const kept = parts.filter((_, i) => i < 50 || i >= 70);
    const short = sequence(
      kept,
      referenceDurations.filter((_, i) => i < 50 || i >= 70),
    );
    const warp = warpWindowed(short.frames, media.frames, { windowFrames: 60, rate, slackFrames: 200 });
    // Before the stretch every sound is in place; from the second sound after it too (the sound right after
    // it may share its edge with the stretch).
    for (let i = 0; i < 50; i++) assert.equal(warp.first[short.starts[i]], media.starts[i], `sound ${i}`);
    for (let i = 52; i < kept.length; i++)
      assert.equal(warp.first[short.starts[i]], media.starts[i + 20], `sound ${i}`);
  });

  it('refines a coarse warp in a band to the same path as a fine one', () => {
    const n = reference.frames.length / CEPSTRA;
    const m = media.frames.length / CEPSTRA;
    const coarse = warpWindowed(poolFrames(reference.frames, n, 2), poolFrames(media.frames, m, 2), {
      windowFrames: 40,
      rate,
      slackFrames: 20,
    });
    const fine = warpInBand(reference.frames, media.frames, coarse, 2, 4);
    reference.starts.forEach((start, i) => assert.equal(fine.first[start], media.starts[i], `sound ${i}`));
    for (let i = 1; i < n; i++)
      assert.ok(
        fine.first[i] >= fine.last[i - 1] - 0 && fine.first[i] <= fine.last[i - 1] + 1,
        `path continuous at ${i}`,
      );
  });

  it('refuses frames that are not whole', () => {
    assert.throws(
      () =>
        warpWindowed(new Float32Array(CEPSTRA + 1), new Float32Array(CEPSTRA), {
          windowFrames: 10,
          rate: 1,
          slackFrames: 1,
        }),
      TypeError,
    );
    assert.throws(
      () => warpWindowed(new Float32Array(CEPSTRA), new Float32Array(0), { windowFrames: 10, rate: 1, slackFrames: 1 }),
      TypeError,
    );
  });
});
