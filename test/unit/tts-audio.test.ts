import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Denoiser, NoiseFloorMeter } from '../../src/engine/audio/denoise';
import { effectiveBitrateKbps, ffmpegOutputArgs } from '../../src/engine/audio/encoder-settings';
import { measureLoudness } from '../../src/engine/audio/loudness';
import { PeakLimiter } from '../../src/engine/audio/peak-limiter';
import { SampleSpool } from '../../src/engine/audio/sample-spool';
import { roundToInt16 } from '../../src/engine/audio/samples';
import { normalizationGainDb } from '../../src/engine/tts/render';
import { tempDir } from '../helpers/temp';

const RATE = 24_000;

function sine(seconds: number, dbfs: number, hz = 997, rate = RATE): Int16Array {
  const amplitude = 32767 * 10 ** (dbfs / 20);
  return Int16Array.from({ length: Math.round(seconds * rate) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );
}

/** Deterministic white noise at about `dbfs` RMS. */
function noise(length: number, dbfs: number): Int16Array {
  let seed = 7;
  const scale = 32767 * 10 ** (dbfs / 20) * Math.sqrt(3);
  return Int16Array.from({ length }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.round(((seed / 2 ** 31) * 2 - 1) * scale);
  });
}

const rms = (x: Int16Array): number => Math.sqrt(x.reduce((sum, v) => sum + v * v, 0) / x.length);

describe('loudness (BS.1770)', () => {
  it('measures a 997 Hz sine at -20 dBFS as -23 LUFS, at any sample rate', () => {
    for (const rate of [16_000, 22_050, 48_000]) {
      const lufs = measureLoudness(sine(3, -20, 997, rate), rate);
      assert.ok(Math.abs(lufs - -23.01) < 0.1, `${rate} Hz: ${lufs} LUFS`);
    }
  });

  it('gates silence: a tone with long pauses measures as the tone, silence as -Infinity', () => {
    const gapped = new Int16Array(RATE * 6);
    gapped.set(sine(2, -20), 0);
    gapped.set(sine(2, -20), RATE * 4);
    // Blocks that straddle a tone's edges pass the gates too, as BS.1770 specifies, and pull the level down a little.
    assert.ok(Math.abs(measureLoudness(gapped, RATE) - -23.01) < 0.5);
    assert.equal(measureLoudness(new Int16Array(RATE), RATE), -Infinity);
    assert.equal(normalizationGainDb(-Infinity), 0);
    assert.equal(normalizationGainDb(-23), 7);
    assert.equal(normalizationGainDb(-80), 30, 'gain is capped');
  });
});

describe('roundToInt16', () => {
  it('rounds as Math.round does, halves and negatives included, and clamps to 16 bits', () => {
    const values = [
      0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49, -0.51, 12.3, -12.7, 32766.5, 32767.4, 40000, -32768.4, -32768.6, -50000,
    ];
    for (let i = 0; i < 2000; i++) values.push((i - 1000) * 33.37, (i - 1000) * 0.25);
    // Compared as stored in an Int16Array, where -0 and 0 are one sample.
    for (const x of values) {
      const expected = Math.max(-32768, Math.min(32767, Math.round(x)));
      assert.equal(Int16Array.of(roundToInt16(x))[0], Int16Array.of(expected)[0], `at ${x}`);
    }
  });
});

describe('PeakLimiter', () => {
  it('applies the gain and keeps every sample under the ceiling, output aligned with input', () => {
    const input = sine(1, -6);
    const limiter = new PeakLimiter({ sampleRate: RATE, gain: 4, ceilingDbfs: -1 });
    const parts = [limiter.process(input.subarray(0, 5000)), limiter.process(input.subarray(5000)), limiter.flush()];
    const output = Int16Array.from(parts.flatMap((p) => [...p]));
    assert.equal(output.length, input.length);
    const ceiling = 32767 * 10 ** (-1 / 20);
    assert.ok(
      output.every((v) => Math.abs(v) <= ceiling + 1),
      'no sample above -1 dBFS',
    );
    assert.ok(Math.max(...output.map(Math.abs)) > ceiling * 0.95, 'peaks reach the ceiling');
  });

  it('is a plain gain when nothing reaches the ceiling', () => {
    const input = sine(0.2, -30);
    const limiter = new PeakLimiter({ sampleRate: RATE, gain: 2, ceilingDbfs: -1 });
    const output = Int16Array.from([...limiter.process(input), ...limiter.flush()]);
    assert.ok(output.every((v, i) => Math.abs(v - input[i] * 2) <= 1));
  });
});

describe('Denoiser', () => {
  it('pushes an audible hiss floor down between words and keeps the speech', () => {
    const hiss = noise(RATE, -50);
    const tone = sine(1, -12);
    const signal = new Int16Array(RATE * 3);
    signal.set(hiss, 0);
    signal.set(
      tone.map((v, i) => v + hiss[i]),
      RATE,
    );
    signal.set(hiss, RATE * 2);
    const meter = new NoiseFloorMeter(RATE);
    meter.push(signal);
    assert.ok(meter.floorDb() > -60 && meter.floorDb() < -45, `floor ${meter.floorDb()}`);
    const out = new Denoiser(RATE, meter.floorDb()).process(signal);
    const tail = out.subarray(RATE * 2 + RATE / 5);
    assert.ok(rms(tail) < rms(hiss) / 4, `hiss ${rms(hiss)} → ${rms(tail)}`);
    const middle = out.subarray(RATE + RATE / 4, RATE * 2 - RATE / 4);
    assert.ok(Math.abs(rms(middle) / rms(tone) - 1) < 0.05, 'the tone keeps its level');
  });

  it('leaves clean audio alone apart from the high-pass', () => {
    const clean = new Int16Array(RATE * 2);
    clean.set(sine(1, -12), RATE / 2);
    const meter = new NoiseFloorMeter(RATE);
    meter.push(clean);
    assert.equal(meter.floorDb(), -Infinity);
    const out = new Denoiser(RATE, meter.floorDb()).process(clean);
    assert.ok(Math.abs(rms(out) / rms(clean) - 1) < 0.01);
  });
});

describe('encoder settings', () => {
  it('uses the requested bitrate where the codec allows it, and none for lossless formats', () => {
    const base = { sampleRate: 44_100, channels: 2 as const, bitrateKbps: 192 };
    assert.equal(effectiveBitrateKbps({ ...base, format: 'mp3' }), 192);
    assert.equal(effectiveBitrateKbps({ ...base, format: 'mp3', sampleRate: 22_050, bitrateKbps: 320 }), 160);
    assert.equal(effectiveBitrateKbps({ ...base, format: 'aac', sampleRate: 16_000, channels: 1 }), 96);
    assert.equal(effectiveBitrateKbps({ ...base, format: 'flac' }), null);
    assert.equal(effectiveBitrateKbps({ ...base, format: 'mp3', bitrateKbps: null }), null);
    assert.deepEqual(ffmpegOutputArgs({ ...base, format: 'aac' }), ['-c:a', 'aac', '-b:a', '192k', '-f', 'adts']);
    assert.deepEqual(ffmpegOutputArgs({ ...base, format: 'mp3', bitrateKbps: null }), [
      '-c:a',
      'libmp3lame',
      '-f',
      'mp3',
    ]);
  });
});

describe('SampleSpool', () => {
  it('gives back exactly what was written, in blocks', async () => {
    const dir = await tempDir();
    const spool = await SampleSpool.create(path.join(dir, 'speech.pcm'), RATE);
    const input = sine(1, -12);
    await spool.write(input.subarray(0, 7000));
    spool.writeSilence(500);
    await spool.write(input.subarray(7000));
    const back: number[] = [];
    for await (const block of spool.read(4096)) back.push(...block);
    assert.equal(back.length, input.length + 500);
    assert.deepEqual(back.slice(0, 7000), [...input.subarray(0, 7000)]);
    assert.ok(back.slice(7000, 7500).every((v) => v === 0));
    assert.deepEqual(back.slice(7500), [...input.subarray(7000)]);
    await spool.dispose();
    await rm(dir, { recursive: true, force: true });
  });
});
