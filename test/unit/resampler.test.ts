import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamingResampler } from '../../src/audio/resampler';
import { resamplerQuality, toneResponse, type ResampleWhole } from '../helpers/resampler-quality';

const sine = (frequency: number, rate: number, count: number, amplitude = 10_000): Int16Array =>
  Int16Array.from({ length: count }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / rate)));

function resampleAll(
  resampler: StreamingResampler,
  input: Int16Array,
  pieceSizes: number[] = [input.length],
): Int16Array {
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

/** Sign changes between `from` and `to`, as a frequency in Hz. */
function zeroCrossingFrequency(samples: Int16Array, rate: number, from: number, to: number): number {
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if (samples[i - 1] < 0 !== samples[i] < 0) crossings++;
  return crossings / 2 / ((to - from) / rate);
}

const rms = (samples: Int16Array, from = 0, to = samples.length): number => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += samples[i] ** 2;
  return Math.sqrt(sum / (to - from));
};

describe('StreamingResampler', () => {
  it('keeps a 1 kHz tone at 1 kHz when going from 22050 to 48000 Hz', () => {
    const output = resampleAll(new StreamingResampler(22050, 48000), sine(1000, 22050, 22050));
    const frequency = zeroCrossingFrequency(output, 48000, 4800, 43200);
    assert.ok(Math.abs(frequency - 1000) < 2, `measured ${frequency} Hz`);
    assert.ok(Math.abs(rms(output, 4800, 43200) - 10_000 / Math.SQRT2) < 100, 'keeps the level');
  });

  it('makes the output exactly as long as the input lasts, for every API rate', () => {
    for (const rate of [16000, 22050, 24000, 32000, 44100, 48000]) {
      const output = resampleAll(new StreamingResampler(22050, rate), sine(440, 22050, 22050 * 2 + 7));
      assert.equal(output.length, Math.ceil(((22050 * 2 + 7) * rate) / 22050), `at ${rate} Hz`);
    }
  });

  it('gives the same samples whether the input comes at once or in uneven pieces', () => {
    const input = sine(700, 22050, 30_000);
    for (const rate of [16000, 48000]) {
      const whole = resampleAll(new StreamingResampler(22050, rate), input);
      const pieces = resampleAll(new StreamingResampler(22050, rate), input, [1, 7, 2206, 0, 333, 5000]);
      assert.deepEqual(pieces, whole, `at ${rate} Hz`);
    }
  });

  it('passes samples through unchanged when both rates are equal', () => {
    const input = sine(300, 22050, 1000);
    const resampler = new StreamingResampler(22050, 22050);
    assert.ok(resampler.isPassThrough);
    assert.deepEqual(resampleAll(resampler, input, [100]), input);
  });

  it('keeps silence silent and a constant level constant', () => {
    const silence = resampleAll(new StreamingResampler(22050, 24000), new Int16Array(5000));
    assert.ok(silence.every((sample) => sample === 0));
    const level = resampleAll(new StreamingResampler(22050, 32000), new Int16Array(5000).fill(12_000));
    assert.ok(level.subarray(200, level.length - 200).every((sample) => Math.abs(sample - 12_000) <= 1));
  });

  it('filters out tones above the new Nyquist frequency when going down to 16000 Hz', () => {
    const output = resampleAll(new StreamingResampler(22050, 16000), sine(9500, 22050, 22050));
    assert.ok(rms(output, 1000, 15000) < 100, `an aliased 9.5 kHz tone left ${rms(output, 1000, 15000)} RMS`);
  });

  it('keeps the passband flat and rejects images and aliases as its filter was designed to', () => {
    const whole =
      (inputRate: number, outputRate: number): ResampleWhole =>
      (input) =>
        resampleAll(new StreamingResampler(inputRate, outputRate), input, [2205]);
    // Up, as every espeak-ng job goes: flat to 8.5 kHz, images of tones up to 10 kHz 80 dB down.
    const up = resamplerQuality(whole(22050, 24000), 22050, 24000, { passbandEdge: 8500, imageEdge: 10_000 });
    assert.ok(up.passbandRippleDb <= 0.01, `passband ripple ${up.passbandRippleDb} dB`);
    assert.ok(up.stopbandAttenuationDb >= 80, `images ${up.stopbandAttenuationDb} dB down`);
    // The image of a 10.55 kHz tone lands at 11.5 kHz, in the filter's roll-off: 32 dB below the tone.
    assert.ok(toneResponse(whole(22050, 24000), 22050, 24000, 10_550).rejectionDb >= 30);
    // Down: tones from 13 kHz on would alias into a 24 kHz output; they are 87 dB down.
    const down = resamplerQuality(whole(44100, 24000), 44100, 24000, {
      passbandEdge: 9000,
      imageEdge: 10_000,
      stopbandFrom: 13_000,
    });
    assert.ok(down.passbandRippleDb <= 0.01, `passband ripple ${down.passbandRippleDb} dB`);
    assert.ok(down.stopbandAttenuationDb >= 85, `stopband ${down.stopbandAttenuationDb} dB down`);
  });

  it('rejects sample rates that are not positive integers', () => {
    assert.throws(() => new StreamingResampler(0, 16000), TypeError);
    assert.throws(() => new StreamingResampler(22050, 44100.5), TypeError);
  });
});
