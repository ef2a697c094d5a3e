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
