import { spawn } from 'node:child_process';
import { TaskYieldedError, UserFacingError } from '../../engine-api/protocol';
import { firstErrorLine, isMissingExecutable, toolNotFoundError } from './ffmpeg';
import { isWasmMedia, type MediaToolchain } from './media-toolchain';
import { startWasmFfmpeg, type WasmRun } from './wasm-ffmpeg';

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
  /** Stops the decoding at the next chunk, rejecting with TaskYieldedError (the task yields its engine process). */
  yieldSignal?: AbortSignal;
}

/**
 * Decodes the audio of any file ffmpeg reads (the audio stream ffmpeg picks) to 16 kHz mono signed 16-bit
 * PCM, with the system ffmpeg or the WebAssembly one. The samples stream from ffmpeg's stdout (or the
 * worker's /dev/out) straight into one buffer sized from the expected length, so a long file never exists as
 * a list of chunks, and the input file is read a block at a time on both paths. The result may be a view on
 * a slightly larger buffer.
 */
export function decodeToPcm16(
  inputPath: string,
  tools: MediaToolchain,
  options: DecodeOptions = {},
): Promise<Int16Array> {
  const wasm = isWasmMedia(tools);
  // The WebAssembly build reads the file as /in/0 and writes the samples to its /dev/out stream.
  const source = wasm ? '/in/0' : inputPath;
  const args = ['-nostdin', '-hide_banner', '-nostats', '-v', 'error', '-i', source];
  if (options.startSeconds !== undefined && options.startSeconds > 0) args.push('-ss', String(options.startSeconds));
  if (options.endSeconds !== undefined) args.push('-to', String(options.endSeconds));
  args.push(
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    '1',
    '-ar',
    String(SPEECH_SAMPLE_RATE),
    '-f',
    's16le',
    wasm ? '/dev/out' : 'pipe:1',
  );

  const expectedBytes = Math.ceil((options.expectedSeconds ?? 0) * SPEECH_SAMPLE_RATE) * 2;
  const maxBytes = options.maxSeconds === undefined ? Infinity : Math.ceil(options.maxSeconds * SPEECH_SAMPLE_RATE) * 2;
  // A second of headroom, because container durations are rounded: growing means copying everything.
  let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(
    Math.min(expectedBytes > 0 ? expectedBytes + SPEECH_SAMPLE_RATE : 1 << 20, maxBytes + SPEECH_SAMPLE_RATE),
  );
  let length = 0;
  let refused: UserFacingError | TaskYieldedError | undefined;
  /** Takes a chunk of samples; false once past maxSeconds (the decoder must be stopped). */
  const accept = (chunk: Uint8Array): boolean => {
    if (refused) return false;
    if (options.yieldSignal?.aborted) {
      refused = new TaskYieldedError();
      return false;
    }
    if (length + chunk.length > maxBytes) {
      refused = options.tooLong?.() ?? new UserFacingError(`The audio is longer than ${options.maxSeconds} seconds.`);
      return false;
    }
    if (length + chunk.length > bytes.length)
      bytes = grow(bytes, Math.min(Math.max(length + chunk.length, Math.ceil(bytes.length * 1.5)), maxBytes));
    bytes.set(chunk, length);
    length += chunk.length;
    if (expectedBytes > 0) options.onProgress?.(Math.min(1, length / expectedBytes));
    return true;
  };
  const samples = (): Int16Array => new Int16Array(bytes.buffer, 0, Math.floor(length / 2));
  const unreadable = (stderr: string): UserFacingError =>
    new UserFacingError(`The file is not a media file ffmpeg can read: ${firstErrorLine(stderr, source)}`);

  if (wasm) return decodeWithWasm(args, inputPath, accept, () => refused, samples, unreadable);

  return new Promise((resolve, reject) => {
    const child = spawn(tools.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (!accept(chunk)) child.kill('SIGKILL');
    });
    child.on('error', (error) => reject(isMissingExecutable(error) ? toolNotFoundError('ffmpeg') : error));
    child.on('close', (code) => {
      if (refused) {
        reject(refused);
        return;
      }
      if (code !== 0) {
        reject(unreadable(stderr));
        return;
      }
      resolve(samples());
    });
  });
}

async function decodeWithWasm(
  args: string[],
  inputPath: string,
  accept: (chunk: Uint8Array) => boolean,
  refused: () => UserFacingError | TaskYieldedError | undefined,
  samples: () => Int16Array,
  unreadable: (stderr: string) => UserFacingError,
): Promise<Int16Array> {
  let run: WasmRun | undefined;
  // eslint-disable-next-line prefer-const -- the chunk callback in the call reads it, which a const's initializer could not
  run = await startWasmFfmpeg({
    program: 'ffmpeg',
    args,
    inputs: [inputPath],
    onOutput: (chunk) => {
      if (!accept(chunk)) void run?.abort();
    },
  });
  const { code, stderr } = await run.done;
  const refusal = refused();
  if (refusal) throw refusal;
  if (code !== 0) throw unreadable(stderr);
  return samples();
}

function grow(bytes: Uint8Array<ArrayBuffer>, size: number): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(size);
  grown.set(bytes);
  return grown;
}
