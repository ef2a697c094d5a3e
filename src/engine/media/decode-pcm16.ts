import { spawn } from 'node:child_process';
import { UserFacingError } from '../protocol';
import { firstErrorLine, isMissingExecutable, toolNotFoundError, type MediaTools } from './ffmpeg';

/** The sample rate speech models take (whisper.cpp, sherpa-onnx diarization, Silero VAD). */
export const SPEECH_SAMPLE_RATE = 16_000;

export interface DecodeOptions {
  /** Start of the part to decode, in seconds of the original media. */
  startSeconds?: number;
  /** End of the part to decode, in seconds of the original media. */
  endSeconds?: number;
  /** What ffprobe said the part lasts: sizes the buffer up front and drives `onProgress`. */
  expectedSeconds?: number;
  /** Fraction decoded so far, 0–1. */
  onProgress?: (fraction: number) => void;
  /**
   * Decoding stops with a UserFacingError past this many seconds, whatever the container claimed: a tiny
   * file can expand to gigabytes of samples (an hour of silence compresses to almost nothing).
   */
  maxSeconds?: number;
  /** The sentence for that error. */
  tooLong?: () => UserFacingError;
}

/**
 * Decodes the audio of any file ffmpeg reads (the audio stream ffmpeg picks) to 16 kHz mono signed 16-bit
 * PCM. The samples stream from ffmpeg's stdout straight into one buffer sized from the expected length, so a
 * long file never exists as a list of chunks. The result may be a view on a slightly larger buffer.
 */
export function decodeToPcm16(inputPath: string, tools: MediaTools, options: DecodeOptions = {}): Promise<Int16Array> {
  const args = ['-nostdin', '-hide_banner', '-nostats', '-v', 'error', '-i', inputPath];
  if (options.startSeconds !== undefined && options.startSeconds > 0) args.push('-ss', String(options.startSeconds));
  if (options.endSeconds !== undefined) args.push('-to', String(options.endSeconds));
  args.push('-vn', '-sn', '-dn', '-ac', '1', '-ar', String(SPEECH_SAMPLE_RATE), '-f', 's16le', 'pipe:1');

  const expectedBytes = Math.ceil((options.expectedSeconds ?? 0) * SPEECH_SAMPLE_RATE) * 2;
  const maxBytes = options.maxSeconds === undefined ? Infinity : Math.ceil(options.maxSeconds * SPEECH_SAMPLE_RATE) * 2;
  // A second of headroom, because container durations are rounded: growing means copying everything.
  let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(
    Math.min(expectedBytes > 0 ? expectedBytes + SPEECH_SAMPLE_RATE : 1 << 20, maxBytes + SPEECH_SAMPLE_RATE),
  );
  let length = 0;
  let refused: UserFacingError | undefined;

  return new Promise((resolve, reject) => {
    const child = spawn(tools.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (refused) return;
      if (length + chunk.length > maxBytes) {
        refused = options.tooLong?.() ?? new UserFacingError(`The audio is longer than ${options.maxSeconds} seconds.`);
        child.kill('SIGKILL');
        return;
      }
      if (length + chunk.length > bytes.length) bytes = grow(bytes, Math.min(Math.max(length + chunk.length, Math.ceil(bytes.length * 1.5)), maxBytes));
      bytes.set(chunk, length);
      length += chunk.length;
      if (expectedBytes > 0) options.onProgress?.(Math.min(1, length / expectedBytes));
    });
    child.on('error', (error) => reject(isMissingExecutable(error) ? toolNotFoundError('ffmpeg') : error));
    child.on('close', (code) => {
      if (refused) {
        reject(refused);
        return;
      }
      if (code !== 0) {
        reject(new UserFacingError(`The file is not a media file ffmpeg can read: ${firstErrorLine(stderr, inputPath)}`));
        return;
      }
      resolve(new Int16Array(bytes.buffer, 0, Math.floor(length / 2)));
    });
  });
}

function grow(bytes: Uint8Array<ArrayBuffer>, size: number): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(size);
  grown.set(bytes);
  return grown;
}
