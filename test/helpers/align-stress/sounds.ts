/**
 * Sound building blocks for the alignment stress set (stress-set.ts): reading the shared 16 kHz clips,
 * trimming their edge silence, a deterministic "other reader" made by resampling, and the beds mixed under
 * the speech (pink noise, a synthesized music bed) at a chosen signal-to-noise ratio. All deterministic:
 * the same seed gives the same samples, so bench runs compare.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { wavHeader } from '../wav';

export const RATE = 16000;

/** A seeded generator of uniform numbers in [0, 1) (mulberry32): small, fast and the same everywhere. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The samples of a 16 kHz mono 16-bit WAV file, as floats in [-1, 1). */
export async function readClip(file: string): Promise<Float32Array> {
  const bytes = await readFile(file);
  if (bytes.readUInt32LE(24) !== RATE || bytes.readUInt16LE(22) !== 1 || bytes.readUInt16LE(34) !== 16)
    throw new TypeError(`Expected a 16 kHz mono 16-bit WAV, got ${file}`);
  let at = 12;
  while (at + 8 <= bytes.length) {
    const size = bytes.readUInt32LE(at + 4);
    if (bytes.toString('ascii', at, at + 4) === 'data') {
      const count = Math.min(size, bytes.length - at - 8) >> 1;
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(at + 8 + 2 * i) / 32768;
      return samples;
    }
    at += 8 + size + (size & 1);
  }
  throw new TypeError(`Expected a data chunk in ${file}`);
}

export async function writeClip(file: string, samples: Float32Array): Promise<void> {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++)
    data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32768))), 2 * i);
  await writeFile(file, Buffer.concat([wavHeader(data.length), data]));
}

const FRAME = RATE / 100;

/**
 * The clip without its leading and trailing silence: 10 ms frames more than 35 dB below its loudest frame,
 * or within 12 dB of its own noise floor (its 10th-percentile frame: JFK's crowd is far above −35 dB).
 */
export function trimSilence(samples: Float32Array): Float32Array {
  const frames = Math.floor(samples.length / FRAME);
  const level = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) sum += samples[i] * samples[i];
    level[f] = 10 * Math.log10(sum / FRAME + 1e-12);
  }
  const floor = Float32Array.from(level).sort()[Math.floor(frames / 10)];
  const threshold = Math.max(Math.max(...level) - 35, floor + 12);
  let first = 0;
  while (first < frames - 1 && level[first] < threshold) first++;
  let last = frames - 1;
  while (last > first && level[last] < threshold) last--;
  return samples.slice(first * FRAME, (last + 1) * FRAME);
}

/**
 * The clip played `factor` times slower (linear interpolation): lower and slower, as a deeper reader would
 * say it. Used for the third voice, from clips no other voice says.
 */
export function slowDown(samples: Float32Array, factor: number): Float32Array {
  const out = new Float32Array(Math.floor(samples.length * factor));
  for (let i = 0; i < out.length; i++) {
    const at = i / factor;
    const k = Math.floor(at);
    const next = Math.min(samples.length - 1, k + 1);
    out[i] = samples[k] + (samples[next] - samples[k]) * (at - k);
  }
  return out;
}

/** The clip scaled to a root-mean-square level in dBFS (readers are recorded at different levels). */
export function atLevel(samples: Float32Array, dbfs: number): Float32Array {
  const power = samples.reduce((sum, s) => sum + s * s, 0) / Math.max(1, samples.length);
  const gain = 10 ** (dbfs / 20) / Math.sqrt(power + 1e-12);
  return samples.map((s) => s * gain);
}

/** Pink noise (Paul Kellet's economy filter over seeded white noise), unit-free: scaled by mixAtSnr. */
export function pinkNoise(length: number, seed: number): Float32Array {
  const random = seeded(seed);
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < length; i++) {
    const white = random() * 2 - 1;
    b0 = 0.99765 * b0 + white * 0.099046;
    b1 = 0.963 * b1 + white * 0.2965164;
    b2 = 0.57 * b2 + white * 1.0526913;
    out[i] = b0 + b1 + b2 + white * 0.1848;
  }
  return out;
}

/**
 * A music-like bed: four-chord changes every 2 s (three voices, three harmonics each, soft attack), a
 * kick on every beat at 120 bpm and a hi-hat on the off-beats. Music shares speech's band and rhythm,
 * which is what makes it harder than noise for energy-based pause finding.
 */
export function musicBed(length: number, seed: number): Float32Array {
  const random = seeded(seed);
  const chords = [
    [220, 277.18, 329.63],
    [196, 246.94, 293.66],
    [174.61, 220, 261.63],
    [196, 246.94, 329.63],
  ];
  const out = new Float32Array(length);
  const chordSamples = 2 * RATE;
  const beat = RATE / 2;
  for (let i = 0; i < length; i++) {
    const chord = chords[Math.floor(i / chordSamples) % chords.length];
    const inChord = (i % chordSamples) / RATE;
    const envelope = Math.min(1, inChord / 0.05) * Math.exp(-inChord * 0.6);
    let tone = 0;
    for (const f of chord) for (let h = 1; h <= 3; h++) tone += Math.sin((2 * Math.PI * f * h * i) / RATE) / (h * h);
    const inBeat = (i % beat) / RATE;
    const kick = Math.sin(2 * Math.PI * (50 + 70 * Math.exp(-inBeat * 30)) * inBeat) * Math.exp(-inBeat * 20);
    const offBeat = ((i + beat / 2) % beat) / RATE;
    const hat = (random() * 2 - 1) * Math.exp(-offBeat * 120) * 0.5;
    out[i] = 0.15 * envelope * tone + 0.8 * kick + hat;
  }
  return out;
}

/** `speech` with `bed` added so that speech power (over `speechMask`'s samples) is `snrDb` above the bed's. */
export function mixAtSnr(speech: Float32Array, bed: Float32Array, speechMask: Uint8Array, snrDb: number): Float32Array {
  let speechPower = 0;
  let count = 0;
  for (let i = 0; i < speech.length; i++)
    if (speechMask[i]) {
      speechPower += speech[i] * speech[i];
      count++;
    }
  speechPower /= Math.max(1, count);
  const bedPower = bed.reduce((sum, s) => sum + s * s, 0) / Math.max(1, bed.length);
  const gain = Math.sqrt(speechPower / (bedPower * 10 ** (snrDb / 10)));
  return speech.map((s, i) => s + bed[i] * gain);
}
