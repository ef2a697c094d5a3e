/**
 * The engine's resampler (`npm run bench -- resampler`): the WebAssembly SIMD kernel against the scalar
 * JavaScript one (the old resampler's arithmetic) on the same filter, measured in the same run: CPU per
 * second of audio on a speech-like signal, passband ripple and image / alias rejection with pure tones
 * (test/helpers/resampler-quality.ts, the measure the tests use).
 */
import os from 'node:os';
import { StreamingResampler } from '../src/audio/resampler';
import { createFastResampler } from '../src/audio/simd-resample-kernel';
import { concatSamples } from '../src/engine/audio/samples';
import { resamplerQuality, toneResponse, type ResampleWhole } from '../test/helpers/resampler-quality';
import { figure, median, type Figure } from './report';

const BLOCK = 32_768;

/** A minute of two tones and noise at the input rate: about what a voice gives, for the timing. */
function signal(rate: number): Int16Array {
  let seed = 5;
  return Int16Array.from({ length: rate * 60 }, (_, i) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.round(9000 * Math.sin(i * 0.05) + 4000 * Math.sin(i * 1.3) + ((seed % 4000) - 2000));
  });
}

/** CPU milliseconds per second of audio, median of 7, fed in the audio thread's blocks. */
function cost(make: () => StreamingResampler, input: Int16Array, rate: number): number {
  const runs: number[] = [];
  for (let round = 0; round < 7; round++) {
    const started = process.cpuUsage();
    const resampler = make();
    for (let at = 0; at < input.length; at += BLOCK) resampler.process(input.subarray(at, at + BLOCK));
    resampler.flush();
    const used = process.cpuUsage(started);
    runs.push((used.user + used.system) / 1000 / (input.length / rate));
  }
  return median(runs);
}

const whole =
  (make: () => StreamingResampler): ResampleWhole =>
  (input) => {
    const resampler = make();
    const parts: Int16Array[] = [];
    for (let at = 0; at < input.length; at += 2048) parts.push(resampler.process(input.subarray(at, at + 2048)));
    parts.push(resampler.flush());
    return concatSamples(parts);
  };

export function runResamplerBench(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const load = os.loadavg()[0].toFixed(1);
  const cases = [
    { from: 22050, to: 24000, edges: { passbandEdge: 8500, imageEdge: 10_000 } },
    { from: 44100, to: 24000, edges: { passbandEdge: 9000, imageEdge: 10_000, stopbandFrom: 13_000 } },
  ];
  for (const { from, to, edges } of cases) {
    const scalar = (): StreamingResampler => new StreamingResampler(from, to);
    const simd = (): StreamingResampler => createFastResampler(from, to);
    const input = signal(from);
    const [scalarCost, simdCost] = [cost(scalar, input, from), cost(simd, input, from)];
    figures.push(
      figure(
        'resampler',
        `${from} → ${to} Hz: SIMD kernel CPU / scalar JavaScript kernel`,
        simdCost / scalarCost,
        '×',
        { kind: 'max', value: 0.5 },
        `${simdCost.toFixed(3)} / ${scalarCost.toFixed(3)} ms CPU per audio second, load ${load}`,
      ),
    );
    const [q0, q1] = [resamplerQuality(whole(scalar), from, to, edges), resamplerQuality(whole(simd), from, to, edges)];
    figures.push(
      figure(
        'resampler',
        `${from} → ${to} Hz: passband ripple to ${edges.passbandEdge} Hz, SIMD (scalar ${(q0.passbandRippleDb * 1000).toFixed(2)})`,
        q1.passbandRippleDb * 1000,
        'mdB',
        { kind: 'max', value: 10 },
      ),
      figure(
        'resampler',
        `${from} → ${to} Hz: stopband attenuation (images, aliases${edges.stopbandFrom ? `, tones from ${edges.stopbandFrom} Hz` : ''}), SIMD (scalar ${q0.stopbandAttenuationDb.toFixed(1)})`,
        q1.stopbandAttenuationDb,
        'dB',
        { kind: 'min', value: Math.floor(q0.stopbandAttenuationDb) },
      ),
    );
    if (from === 22050) {
      const image = (make: () => StreamingResampler): number => toneResponse(whole(make), from, to, 10_550).rejectionDb;
      figures.push(
        figure(
          'resampler',
          `${from} → ${to} Hz: a 10.55 kHz tone over its image at 11.5 kHz, SIMD (scalar ${image(scalar).toFixed(1)})`,
          image(simd),
          'dB',
          { kind: 'min', value: 30 },
        ),
      );
    }
  }
  return Promise.resolve(figures);
}
