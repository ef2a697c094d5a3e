import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactSpeech } from '../../src/engine/stt/speech-timeline';

// 10 samples a second keeps the arithmetic readable; sample i holds the value i.
const RATE = 10;
const ramp = (length: number) => Int16Array.from({ length }, (_, i) => i);

describe('compactSpeech', () => {
  it('copies the speech stretches back to back with a silent gap between them', () => {
    const { samples } = compactSpeech(
      ramp(100),
      [
        { start: 1, end: 2 },
        { start: 5, end: 5.5 },
      ],
      RATE,
      0.3,
    );
    assert.deepEqual(Array.from(samples), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 0, 0, 0, 50, 51, 52, 53, 54]);
  });

  it('maps times inside a stretch linearly and a gap onto the whole pause it replaced', () => {
    const { toSourceSeconds } = compactSpeech(
      ramp(100),
      [
        { start: 1, end: 2 },
        { start: 5, end: 6 },
      ],
      RATE,
      0.2,
    );
    assert.equal(toSourceSeconds(0), 1);
    assert.equal(toSourceSeconds(0.5), 1.5);
    assert.equal(toSourceSeconds(1), 2);
    assert.equal(toSourceSeconds(1.1), 3.5); // halfway through the gap = halfway through 2 s → 5 s
    assert.equal(toSourceSeconds(1.2), 5);
    assert.equal(toSourceSeconds(1.7), 5.5);
    assert.equal(toSourceSeconds(2.2), 6);
    assert.equal(toSourceSeconds(9), 6); // past the end stays at the end of the last stretch
  });

  it('merges overlapping ranges, sorts them and clamps them to the audio', () => {
    const { samples, toSourceSeconds } = compactSpeech(
      ramp(30),
      [
        { start: 2, end: 5 },
        { start: 0.5, end: 1 },
        { start: 0.8, end: 1.2 },
      ],
      RATE,
      0.1,
    );
    assert.deepEqual(Array.from(samples), [5, 6, 7, 8, 9, 10, 11, 0, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    assert.equal(toSourceSeconds(0.8), 2);
  });

  it('gives empty samples when there is no speech', () => {
    assert.equal(compactSpeech(ramp(30), [], RATE).samples.length, 0);
  });
});
