/**
 * A language model's GGUF header, checked before llama.cpp loads the file: the magic, a known version, and
 * tensor and metadata counts the file can hold. llama.cpp trusts the counts, so a damaged or hostile 64-byte
 * file claiming 2^60 tensors made it allocate and spin for minutes; here it is refused in a read of 24 bytes.
 */
import { open } from 'node:fs/promises';

const HEADER_BYTES = 24;
/** The smallest a tensor's description can be: name length (8), a one-byte name, dimensions (4 + 8), type (4), offset (8). */
const MIN_TENSOR_INFO_BYTES = 33;
/** The smallest a metadata entry can be: key length (8), a one-byte key, value type (4), a one-byte value. */
const MIN_KV_BYTES = 14;

/** Why the file at `file` cannot be a GGUF model, or null when its header holds up. */
export async function ggufHeaderProblem(file: string): Promise<string | null> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    if (bytesRead < HEADER_BYTES || header.toString('latin1', 0, 4) !== 'GGUF') return 'it is not a GGUF file';
    const version = header.readUInt32LE(4);
    if (version < 2 || version > 3) return `its GGUF version ${version} is not one llama.cpp reads (2 or 3)`;
    const tensors = header.readBigUInt64LE(8);
    const entries = header.readBigUInt64LE(16);
    const least = tensors * BigInt(MIN_TENSOR_INFO_BYTES) + entries * BigInt(MIN_KV_BYTES) + BigInt(HEADER_BYTES);
    if (tensors === 0n || least > BigInt(size))
      return `its header claims ${tensors} tensors and ${entries} metadata entries, which a file of ${size} bytes cannot hold (damaged, or not a model)`;
    return null;
  } finally {
    await handle.close();
  }
}
