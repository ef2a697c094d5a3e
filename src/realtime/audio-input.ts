/**
 * The session's input audio as the engine wants it, 16 kHz mono 16-bit: OpenAI's `pcm16` at 24 kHz
 * (resampled here), pcm16 at 16 kHz (our extension; passed through untouched), and G.711 μ-law and A-law at
 * 8 kHz (expanded and upsampled). Chunks may split a sample or a resampling step: the state carries over.
 */
import { StreamingResampler } from '../audio/resampler';

export type InputFormat = 'pcm16-24k' | 'pcm16-16k' | 'g711_ulaw' | 'g711_alaw';

export const TARGET_RATE = 16_000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether a chunk is base64 that decodes whole (no stray characters, no lone last character). */
export function isBase64Audio(text: string): boolean {
  return BASE64.test(text) && text.length % 4 !== 1;
}

export interface AudioInput {
  /** The samples a chunk adds, at 16 kHz. */
  push(bytes: Buffer): Int16Array;
}

export function audioInput(format: InputFormat): AudioInput {
  switch (format) {
    case 'pcm16-16k':
      return pcm16Input();
    case 'pcm16-24k':
      return pcm16Input(new StreamingResampler(24_000, TARGET_RATE));
    case 'g711_ulaw':
      return g711Input(ulawToLinear);
    case 'g711_alaw':
      return g711Input(alawToLinear);
  }
}

/** Little-endian 16-bit samples, resampled to 16 kHz when they come at another rate. */
function pcm16Input(resampler?: StreamingResampler): AudioInput {
  let carry: Buffer = Buffer.alloc(0);
  return {
    push(bytes) {
      const all = carry.length > 0 ? Buffer.concat([carry, bytes]) : bytes;
      const whole = all.length - (all.length % 2);
      carry = Buffer.from(all.subarray(whole));
      const samples = new Int16Array(whole / 2);
      for (let i = 0; i < samples.length; i += 1) samples[i] = all.readInt16LE(i * 2);
      return resampler ? resampler.process(samples) : samples;
    },
  };
}

/** 8 kHz companded bytes, expanded, then resampled to 16 kHz. */
function g711Input(expand: (byte: number) => number): AudioInput {
  const resampler = new StreamingResampler(8_000, TARGET_RATE);
  return {
    push(bytes) {
      const linear = new Int16Array(bytes.length);
      for (let i = 0; i < bytes.length; i += 1) linear[i] = expand(bytes[i]);
      return resampler.process(linear);
    },
  };
}

/** ITU-T G.711 μ-law to 16-bit linear. */
export function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
}

/** ITU-T G.711 A-law to 16-bit linear. */
export function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  let magnitude = (a & 0x0f) << 4;
  magnitude = exponent === 0 ? magnitude + 8 : (magnitude + 0x108) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}
