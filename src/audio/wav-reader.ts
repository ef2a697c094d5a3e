/**
 * A small RIFF/WAVE parser, shared by the engine and the server side: enough to check what the engine wrote
 * (tests, API checks, an audiobook's takes) and to read 16-bit PCM samples back.
 */

export interface WavInfo {
  /** `pcm` (format code 1), `float` (3), `extensible` (0xFFFE) or `other`. */
  format: 'pcm' | 'float' | 'extensible' | 'other';
  formatCode: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Byte offset of the first sample, and the data size the header declares. */
  dataOffset: number;
  dataBytes: number;
  /** Sample frames in the data chunk (one sample per channel each). */
  frames: number;
}

const FORMAT_NAMES: Record<number, WavInfo['format']> = { 1: 'pcm', 3: 'float', 0xfffe: 'extensible' };

/** Reads the header of a WAV file. Throws a TypeError when `buffer` is not a WAV file. */
export function readWavInfo(buffer: Uint8Array): WavInfo {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const tag = (offset: number): string => String.fromCharCode(...buffer.subarray(offset, offset + 4));
  if (buffer.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new TypeError('Expected a RIFF/WAVE file');
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'frames'> | undefined;
  let offset = 12;
  while (offset + 8 <= buffer.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buffer.length) throw new TypeError('Expected a complete fmt chunk');
      const formatCode = view.getUint16(body, true);
      fmt = {
        format: FORMAT_NAMES[formatCode] ?? 'other',
        formatCode,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new TypeError('Expected the fmt chunk before the data chunk');
      const blockAlign = fmt.channels * Math.ceil(fmt.bitsPerSample / 8);
      return { ...fmt, dataOffset: body, dataBytes: size, frames: blockAlign > 0 ? Math.floor(size / blockAlign) : 0 };
    }
    offset = body + size + (size % 2); // chunks are padded to an even length
  }
  throw new TypeError(fmt ? 'Expected a data chunk' : 'Expected a fmt chunk');
}

/** The interleaved samples of a 16-bit PCM WAV file (as many as the file really holds). */
export function readWavSamples(buffer: Uint8Array): { info: WavInfo; samples: Int16Array } {
  const info = readWavInfo(buffer);
  if (info.format !== 'pcm' || info.bitsPerSample !== 16) {
    throw new TypeError(`Expected 16-bit PCM, got format ${info.formatCode} with ${info.bitsPerSample} bits`);
  }
  const available = Math.min(info.dataBytes, buffer.length - info.dataOffset);
  const count = Math.floor(available / 2);
  const view = new DataView(buffer.buffer, buffer.byteOffset + info.dataOffset, count * 2);
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true);
  return { info, samples };
}
