import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SilenceTrimmer, firstAudibleIndex } from '../../src/engine/audio/silence-trimmer';

/** Feeds `input` in pieces of `size` samples and returns everything the trimmer let through. */
function trim(input: number[], size = input.length, marginSamples = 3): number[] {
  const trimmer = new SilenceTrimmer({ marginSamples, threshold: 100 });
  const out: number[] = [];
  for (let i = 0; i < input.length; i += size) out.push(...trimmer.push(Int16Array.from(input.slice(i, i + size))));
  out.push(...trimmer.finish());
  return out;
}

describe('SilenceTrimmer', () => {
  it('keeps the margin of quiet samples on each side of the sound and drops the rest', () => {
    assert.deepEqual(trim([1, 2, 3, 4, 5, 500, -600, 6, 7, 8, 9, 10]), [3, 4, 5, 500, -600, 6, 7, 8]);
  });

  it('gives the same samples however the input is split', () => {
    const input = [1, 2, 3, 4, 5, 500, -600, 6, 7, 8, 9, 10, 700, 11, 12, 13, 14, 15];
    const whole = trim(input);
    assert.deepEqual(whole, [3, 4, 5, 500, -600, 6, 7, 8, 9, 10, 700, 11, 12, 13]);
    for (const size of [1, 2, 5, 7]) assert.deepEqual(trim(input, size), whole, `pieces of ${size}`);
  });

  it('keeps pauses between sounds whole, however long', () => {
    const pause = new Array<number>(50).fill(0);
    assert.deepEqual(trim([500, ...pause, 500], 4), [500, ...pause, 500]);
  });

  it('keeps what there is when the silence is shorter than the margin', () => {
    assert.deepEqual(trim([1, 500, 2], 1, 10), [1, 500, 2]);
  });

  it('holds back quiet samples until louder audio follows or the stream ends', () => {
    const trimmer = new SilenceTrimmer({ marginSamples: 2, threshold: 100 });
    assert.deepEqual([...trimmer.push(Int16Array.from([500, 1, 2]))], [500]);
    assert.deepEqual([...trimmer.push(Int16Array.from([3]))], []);
    assert.deepEqual([...trimmer.push(Int16Array.from([4, 200, 5]))], [1, 2, 3, 4, 200]);
    assert.deepEqual([...trimmer.finish()], [5]);
  });

  it('treats samples at the threshold as silence and lets nothing through when all is silence', () => {
    assert.deepEqual(trim([100, -100, 0, 50]), []);
    assert.deepEqual(trim([100, 101, 100], 1, 0), [101]);
  });

  it('sizes its margin from the sample rate (50 ms)', () => {
    const trimmer = SilenceTrimmer.forSampleRate(22050);
    const quiet = new Int16Array(5000);
    const out = [...trimmer.push(Int16Array.from([...quiet, 1000, ...quiet]))];
    out.push(...trimmer.finish());
    assert.equal(out.length, 1103 + 1 + 1103);
  });
});

describe('firstAudibleIndex', () => {
  it('finds the first sample louder than the threshold, or -1', () => {
    assert.equal(firstAudibleIndex(Int16Array.from([0, 100, -101, 500])), 2);
    assert.equal(firstAudibleIndex(Int16Array.from([0, 100, -100])), -1);
  });
});
