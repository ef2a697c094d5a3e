import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CEPSTRA, computeFeatures, frameCount } from '../../src/engine/align/features';
import { Fft } from '../../src/engine/align/fft';
import { findPauses, noiseFloorDb, quietMarginDb } from '../../src/engine/align/pauses';
import { placeUnits } from '../../src/engine/align/place-units';

const RATE = 16_000;

function tone(hz: number, seconds: number, amplitude = 8000): Int16Array {
  return Int16Array.from({ length: Math.round(seconds * RATE) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE)),
  );
}

function join(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const distance = (a: Float32Array, i: number, j: number): number =>
  Math.hypot(...Array.from({ length: CEPSTRA }, (_, c) => a[i * CEPSTRA + c] - a[j * CEPSTRA + c]));

describe('aligner features', () => {
  it('transforms a sine into one bin of the spectrum', () => {
    const fft = new Fft(64);
    const re = Float64Array.from({ length: 64 }, (_, i) => Math.cos((2 * Math.PI * 5 * i) / 64));
    const im = new Float64Array(64);
    fft.transform(re, im);
    const magnitudes = Array.from(re, (r, i) => Math.hypot(r, im[i]));
    assert.ok(Math.abs(magnitudes[5] - 32) < 1e-9 && Math.abs(magnitudes[59] - 32) < 1e-9);
    assert.ok(magnitudes.every((m, i) => i === 5 || i === 59 || m < 1e-9));
    assert.throws(() => new Fft(48), TypeError);
  });

  it('gives one frame every 10 ms, alike for the same sound and unlike for another', () => {
    const samples = join(tone(300, 0.5), tone(2500, 0.5), tone(300, 0.5));
    const features = computeFeatures(samples, RATE);
    assert.equal(features.frames, 150);
    assert.equal(features.frames, frameCount(samples.length, RATE));
    assert.ok(distance(features.cepstra, 20, 120) < distance(features.cepstra, 20, 70) / 4);
  });

  it('reads loudness as energy in dB, digital silence at the floor', () => {
    const features = computeFeatures(join(new Int16Array(RATE / 2), tone(440, 0.5)), RATE);
    assert.ok(features.energyDb[10] < -90);
    assert.ok(Math.abs(features.energyDb[70] - 20 * Math.log10(8000 / 32768 / Math.SQRT2)) < 1);
  });

  it("works at the synthesizer's rate too", () => {
    const samples = Int16Array.from({ length: 22050 }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 22050)),
    );
    assert.equal(computeFeatures(samples, 22050).frames, 100);
  });
});

describe('pauses', () => {
  // Noise at −60 dBFS, speech-loud stretches between pauses of 50 ms, 300 ms and 20 ms.
  const energy = Float32Array.from({ length: 200 }, (_, frame) => {
    const quiet =
      frame < 10 ||
      (frame >= 50 && frame < 55) ||
      (frame >= 100 && frame < 130) ||
      (frame >= 160 && frame < 162) ||
      frame >= 190;
    return quiet ? -60 + (frame % 3) : -20;
  });

  it('finds quiet runs of 30 ms or more, and the edges of the media', () => {
    const floor = noiseFloorDb(energy, null);
    assert.ok(floor <= -58);
    const pauses = findPauses(energy, floor).map((p) => [Math.round(p.start * 100), Math.round(p.end * 100)]);
    assert.deepEqual(pauses, [
      [0, 10],
      [50, 55],
      [100, 130],
      [190, 200],
    ]);
  });

  it('narrows the quiet margin to half the way from the floor to the speech level under loud noise', () => {
    // Noise at −30 dB, then speech whose frames are mostly −22 dB with a louder one in five (about 10 dB SNR):
    // a 10 dB margin would call the −22 dB runs pauses.
    const noisy = Float32Array.from({ length: 200 }, (_, frame) => (frame < 100 ? -30 : frame % 5 ? -22 : -12));
    const speech = [{ start: 1, end: 2 }];
    const floor = noiseFloorDb(noisy, speech);
    assert.equal(floor, -30);
    const margin = quietMarginDb(noisy, floor, speech);
    assert.equal(margin, 4);
    assert.deepEqual(
      findPauses(noisy, floor, margin).map((p) => [Math.round(p.start * 100), Math.round(p.end * 100)]),
      [[0, 100]],
    );
    assert.equal(quietMarginDb(energy, -60, [{ start: 0.1, end: 0.5 }]), 10, 'clean speech keeps 10 dB');
    assert.equal(quietMarginDb(energy, -60, null), 10, 'without VAD, 10 dB');
  });

  it('measures the floor where VAD heard no speech', () => {
    assert.ok(
      noiseFloorDb(energy, [
        { start: 0.1, end: 1.0 },
        { start: 1.3, end: 1.9 },
      ]) <= -58,
    );
  });
});

describe('placing units through a warp', () => {
  const identity = { firstFrame: (f: number) => f, lastFrame: (f: number) => f, rate: 1, duration: 3 };
  const units = [
    {
      startFrame: 20,
      endFrame: 100,
      words: [
        { text: 'one', frame: 20 },
        { text: 'two', frame: 60 },
      ],
    },
    { startFrame: 120, endFrame: 200, words: [{ text: 'three', frame: 120 }] },
  ];

  it('moves each boundary into the pause beside it and keeps the words inside their unit', () => {
    const placed = placeUnits(units, identity, [
      { start: 0, end: 0.23 },
      { start: 0.97, end: 1.25 },
      { start: 2.1, end: 3 },
    ]);
    assert.deepEqual(
      placed.map((u) => [u.matched, u.start, u.end]),
      [
        [true, 0.23, 0.97],
        [true, 1.25, 2.1],
      ],
    );
    assert.deepEqual(
      placed[0].words.map((w) => [w.text, w.start, w.end]),
      [
        ['one', 0.23, 0.6],
        ['two', 0.6, 0.97],
      ],
    );
  });

  it('reports a unit the warp passed over in a moment as not found', () => {
    const squeezed = {
      ...identity,
      firstFrame: (f: number) => (f >= 120 ? 120 : f),
      lastFrame: (f: number) => (f >= 120 ? 121 : f),
    };
    const placed = placeUnits(units, squeezed, []);
    assert.deepEqual(
      placed.map((u) => u.matched),
      [true, false],
    );
  });
});
