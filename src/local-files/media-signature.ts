/**
 * Whether a file on this machine starts like an audio or video container, read from its first bytes: a
 * cheap check before copying a local file into a job, so a large file that is no media is refused without
 * being copied (ffmpeg still decides in the end).
 */
import { open } from 'node:fs/promises';

const HEAD_BYTES = 64;

const ascii = (head: Buffer, offset: number, text: string): boolean =>
  head.toString('latin1', offset, offset + text.length) === text;

/** The container the first bytes announce, or undefined when they announce none we decode. */
export function mediaSignature(head: Buffer): string | undefined {
  if (ascii(head, 0, 'RIFF') && (ascii(head, 8, 'WAVE') || ascii(head, 8, 'AVI '))) return 'riff';
  if (ascii(head, 0, 'RF64') || ascii(head, 0, 'BW64')) return 'wav64';
  if (ascii(head, 0, 'FORM') && (ascii(head, 8, 'AIFF') || ascii(head, 8, 'AIFC'))) return 'aiff';
  if (ascii(head, 0, 'fLaC')) return 'flac';
  if (ascii(head, 0, 'OggS')) return 'ogg';
  if (ascii(head, 0, 'ID3')) return 'mp3';
  if (ascii(head, 0, '#!AMR')) return 'amr';
  if (ascii(head, 0, 'caff')) return 'caf';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x3026b275) return 'asf';
  if (head.length >= 8 && ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].some((atom) => ascii(head, 4, atom)))
    return 'mp4';
  // An MPEG audio frame or an ADTS (AAC) header: eleven set sync bits.
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) return 'mpeg-audio';
  return undefined;
}

/** Reads the first bytes of `file` and answers its container, or undefined. */
export async function readMediaSignature(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return mediaSignature(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
