// Sonic's time stretch, compiled to WebAssembly: audio comes out at the length the speed asks for, streamed or
// whole. In test/engine, beside the other tests that load the engine's WebAssembly (test/unit loads none).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stretchClip, TimeStretcher } from '../../src/engine/audio/time-stretch';

const RATE = 24_000;

function sine(seconds: number, dbfs: number, hz = 997, rate = RATE): Int16Array {
  const amplitude = 32767 * 10 ** (dbfs / 20);
  return Int16Array.from({ length: Math.round(seconds * rate) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );
}

describe('time stretch (Sonic)', () => {
  it('makes audio the expected length at any factor, streamed or whole', async () => {
    const input = sine(2, -12, 220);
    for (const speed of [0.5, 0.8, 1.5, 2]) {
      const output = await stretchClip(input, RATE, speed);
      assert.ok(Math.abs(output.length - input.length / speed) < RATE * 0.02, `${speed}: ${output.length}`);
    }
    const stretcher = await TimeStretcher.create(RATE, 2);
    let count = 0;
    for (let i = 0; i < input.length; i += 1000) count += stretcher.process(input.subarray(i, i + 1000)).length;
    count += stretcher.flush().length;
    assert.ok(Math.abs(count - input.length / 2) < RATE * 0.02);
    await assert.rejects(TimeStretcher.create(RATE, 0), TypeError);
  });
});
