import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noiseFloorDb } from '../../src/engine/align/pauses';
import {
  joinExcerpts,
  spansInMedia,
  VAD_BUDGET_SECONDS,
  vadExcerpts,
  vadSpeechSeconds,
} from '../../src/engine/align/vad-excerpts';

describe('the excerpts of long media that VAD hears for the aligner', () => {
  it("gives the media's speech as the share VAD heard as speech, scaled to the whole length", () => {
    assert.equal(vadSpeechSeconds([{ start: 1, end: 4 }], undefined, 10), 3);
    const heard = [
      { start: 0, end: 60 },
      { start: 300, end: 360 },
    ];
    assert.equal(
      vadSpeechSeconds(
        [
          { start: 0, end: 30 },
          { start: 300, end: 360 },
        ],
        heard,
        600,
      ),
      450,
    );
    assert.equal(vadSpeechSeconds(null, undefined, 10), null, 'no VAD: measured by energy instead');
    assert.equal(vadSpeechSeconds([], undefined, 10), null, 'no speech heard: measured by energy instead');
  });

  it('hears media up to the budget whole, without copying it', () => {
    assert.deepEqual(vadExcerpts(118), [{ start: 0, end: 118 }]);
    const pcm = new Int16Array(16000 * 3);
    assert.equal(joinExcerpts(pcm, 16000, vadExcerpts(3)), pcm);
  });

  it('hears an hour as evenly spread excerpts within the budget, from the start to the end', () => {
    const excerpts = vadExcerpts(3600);
    const heard = excerpts.reduce((sum, excerpt) => sum + excerpt.end - excerpt.start, 0);
    assert.ok(heard <= VAD_BUDGET_SECONDS, `heard ${heard} s`);
    assert.equal(excerpts[0].start, 0);
    assert.ok(Math.abs(excerpts.at(-1)!.end - 3600) < 1e-9);
    excerpts.slice(1).forEach((excerpt, i) => assert.ok(excerpt.start >= excerpts[i].end, 'in order, not overlapping'));
  });

  it("joins the excerpts' samples and maps speech found in them back to the media's times, cut at the joins", () => {
    const rate = 10;
    const pcm = Int16Array.from({ length: 1000 }, (_, i) => i);
    const excerpts = [
      { start: 10, end: 20 },
      { start: 50, end: 60 },
    ];
    const joined = joinExcerpts(pcm, rate, excerpts);
    assert.deepEqual([...joined.subarray(0, 2)], [100, 101]);
    assert.deepEqual([...joined.subarray(100, 102)], [500, 501]);
    assert.equal(joined.length, 200);
    assert.deepEqual(
      spansInMedia(
        [
          { start: 2, end: 4 },
          { start: 8, end: 13 },
        ],
        excerpts,
      ),
      [
        { start: 12, end: 14 },
        { start: 18, end: 20 },
        { start: 50, end: 53 },
      ],
    );
  });

  it('measures the noise floor only where VAD listened', () => {
    // 100 frames: quiet −60 dB in the first half, −30 dB hum in the second, which VAD did not hear.
    const energy = Float32Array.from({ length: 200 }, (_, i) => (i < 100 ? -60 : -30));
    assert.equal(noiseFloorDb(energy, [], [{ start: 0, end: 1 }]), -60);
    assert.equal(noiseFloorDb(energy, [], undefined), -30, 'heard whole, the median of all frames outside speech');
    assert.equal(noiseFloorDb(energy, [{ start: 0.5, end: 2 }], [{ start: 0, end: 2 }]), -60);
  });
});
