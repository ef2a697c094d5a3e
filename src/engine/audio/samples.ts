/** Joins blocks of 16-bit samples into one array. */
export function concatSamples(blocks: readonly Int16Array[]): Int16Array {
  if (blocks.length === 1) return blocks[0];
  const total = blocks.reduce((sum, block) => sum + block.length, 0);
  const out = new Int16Array(total);
  let offset = 0;
  for (const block of blocks) {
    out.set(block, offset);
    offset += block.length;
  }
  return out;
}

/** Mono samples as interleaved stereo: each sample on both channels. */
export function stereoFromMono(samples: Int16Array): Int16Array {
  const out = new Int16Array(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    out[2 * i] = samples[i];
    out[2 * i + 1] = samples[i];
  }
  return out;
}

/**
 * Math.round(x) clamped to 16 bits, for the loops that see every sample of a job: the same result as
 * `Math.round` (floor of x + 0.5), without its call, which costs more than the rest of such a loop.
 */
export function roundToInt16(x: number): number {
  if (x >= 32767) return 32767;
  if (x <= -32768) return -32768;
  const y = x + 0.5;
  const t = y | 0;
  return t > y ? t - 1 : t;
}
