import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamingResampler } from '../../src/audio/resampler';
import { createFastResampler, hasSimdResampler } from '../../src/audio/simd-resample-kernel';
import { resamplerQuality, toneResponse, type ResampleWhole } from '../helpers/resampler-quality';

/** Every output of a resampler fed `input` in pieces of the given sizes (cycled), flush included. */
function resampleAll(resampler: StreamingResampler, input: Int16Array, pieceSizes: number[]): Int16Array {
  const parts: Int16Array[] = [];
  let offset = 0;
  for (let i = 0; offset < input.length; i++) {
    const size = pieceSizes[i % pieceSizes.length];
    parts.push(resampler.process(input.subarray(offset, offset + size)));
    offset += size;
  }
  parts.push(resampler.flush());
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}

/** Speech-like test input: two tones and a deterministic noise, loud enough to use the 16 bits. */
function testSignal(count: number): Int16Array {
  let seed = 7;
  return Int16Array.from({ length: count }, (_, i) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.round(9000 * Math.sin(i * 0.05) + 4000 * Math.sin(i * 1.3) + ((seed % 4000) - 2000));
  });
}

const RATE_PAIRS: ReadonlyArray<[number, number]> = [
  [22050, 24000],
  [22050, 48000],
  [24000, 16000],
  [44100, 24000],
  [16000, 22050],
];

describe('createFastResampler (the WebAssembly SIMD kernel)', () => {
  it('runs on WebAssembly SIMD in this Node (else the tests below would only test the fallback)', () => {
    assert.ok(hasSimdResampler());
  });

  it('gives the JavaScript kernel’s samples within one step of 16 bits, and as many, at every rate pair', () => {
    const input = testSignal(40_000);
    for (const [from, to] of RATE_PAIRS) {
      const scalar = resampleAll(new StreamingResampler(from, to), input, [40_000]);
      const simd = resampleAll(createFastResampler(from, to), input, [40_000]);
      assert.equal(simd.length, scalar.length, `${from} → ${to}`);
      let largest = 0;
      for (let i = 0; i < simd.length; i++) largest = Math.max(largest, Math.abs(simd[i] - scalar[i]));
      assert.ok(largest <= 1, `${from} → ${to}: differs by ${largest}`);
    }
  });

  it('gives the same samples whether the input comes at once or in uneven pieces (chunked == whole)', () => {
    const input = testSignal(60_000);
    for (const [from, to] of RATE_PAIRS) {
      const whole = resampleAll(createFastResampler(from, to), input, [input.length]);
      const pieces = resampleAll(createFastResampler(from, to), input, [1, 7, 2206, 0, 333, 32_768, 5]);
      assert.deepEqual(pieces, whole, `${from} → ${to}`);
    }
  });

  it('keeps the passband flat and rejects images and aliases as well as the JavaScript kernel', () => {
    const whole =
      (from: number, to: number): ResampleWhole =>
      (input) =>
        resampleAll(createFastResampler(from, to), input, [2048]);
    const up = resamplerQuality(whole(22050, 24000), 22050, 24000, { passbandEdge: 8500, imageEdge: 10_000 });
    assert.ok(up.passbandRippleDb <= 0.01, `passband ripple ${up.passbandRippleDb} dB`);
    assert.ok(up.stopbandAttenuationDb >= 80, `images ${up.stopbandAttenuationDb} dB down`);
    assert.ok(toneResponse(whole(22050, 24000), 22050, 24000, 10_550).rejectionDb >= 30);
    const down = resamplerQuality(whole(44100, 24000), 44100, 24000, {
      passbandEdge: 9000,
      imageEdge: 10_000,
      stopbandFrom: 13_000,
    });
    assert.ok(down.passbandRippleDb <= 0.01, `passband ripple ${down.passbandRippleDb} dB`);
    assert.ok(down.stopbandAttenuationDb >= 85, `stopband ${down.stopbandAttenuationDb} dB down`);
  });

  it('keeps silence silent and passes equal rates through unchanged', () => {
    const silence = resampleAll(createFastResampler(22050, 24000), new Int16Array(5000), [1000]);
    assert.ok(silence.every((sample) => sample === 0));
    const input = testSignal(3000);
    assert.deepEqual(resampleAll(createFastResampler(24000, 24000), input, [100]), input);
  });
});
