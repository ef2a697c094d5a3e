import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkSpeech } from '../../src/engine/stt/recognizers/parakeet';

const RATE = 16_000;
/** Loud noise everywhere except the quiet stretches given in seconds. */
function audio(seconds: number, quiet: Array<[number, number]> = []): Int16Array {
  return Int16Array.from({ length: seconds * RATE }, (_, i) =>
    quiet.some(([from, to]) => i >= from * RATE && i < to * RATE) ? 0 : i % 2 ? 8000 : -8000,
  );
}

function assertCovers(chunks: Array<[number, number]>, length: number): void {
  assert.equal(chunks[0]?.[0], 0);
  assert.equal(chunks.at(-1)?.[1], length);
  chunks.forEach(([from, to], i) => {
    assert.ok(to > from && to - from <= 15 * RATE, `chunk ${i} is 0–15 s long`);
    if (i > 0) assert.equal(from, chunks[i - 1]?.[1], 'back to back');
  });
}

describe('cutting speech into Parakeet chunks', () => {
  it('keeps audio of 15 s or less whole', () => {
    assert.deepEqual(chunkSpeech(audio(12), [{ start: 0, end: 12 }]), [[0, 12 * RATE]]);
    assert.deepEqual(chunkSpeech(new Int16Array(0), []), []);
  });

  it('cuts between VAD stretches, in the middle of the gap, as late as it can', () => {
    const stretches = [
      { start: 0, end: 6 },
      { start: 6.1, end: 11 },
      { start: 11.1, end: 20 },
    ];
    const chunks = chunkSpeech(audio(20), stretches);
    assert.deepEqual(chunks, [
      [0, 11.05 * RATE],
      [11.05 * RATE, 20 * RATE],
    ]);
  });

  it("without a gap, cuts at the quietest moment of the chunk's last third", () => {
    const chunks = chunkSpeech(
      audio(40, [
        [12, 12.3],
        [27, 27.2],
      ]),
      [{ start: 0, end: 40 }],
    );
    assertCovers(chunks, 40 * RATE);
    const cuts = chunks.slice(1).map(([from]) => from / RATE);
    assert.ok(cuts[0] !== undefined && cuts[0] >= 12 && cuts[0] <= 12.3, `first cut ${cuts[0]} in the quiet at 12 s`);
    assert.ok(cuts[1] !== undefined && cuts[1] >= 27 && cuts[1] <= 27.2, `second cut ${cuts[1]} in the quiet at 27 s`);
  });
});
