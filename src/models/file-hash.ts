import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cancelledError } from './model-error';

/** Feeds a file (streamed, never loaded whole) into `hash`; resolves with the bytes read. */
export async function hashInto(hash: Hash, file: string, signal?: AbortSignal): Promise<number> {
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    if (signal?.aborted) throw cancelledError();
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return bytes;
}

export async function sha256File(file: string, signal?: AbortSignal): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const bytes = await hashInto(hash, file, signal);
  return { sha256: hash.digest('hex'), bytes };
}
