import { TaskYieldedError, UserFacingError } from '../../engine-api/protocol';
import { firstErrorLine, runTool } from './ffmpeg';
import { isWasmMedia, type MediaToolchain } from './media-toolchain';
import { runWasmFfmpeg } from './wasm-ffmpeg';

export interface MediaProbe {
  /** Null when the container does not say (some raw streams); the decoded length is the truth then. */
  durationSeconds: number | null;
  hasAudio: boolean;
}

interface FfprobeJson {
  format?: { duration?: string };
  streams?: Array<{ codec_type?: string }>;
}

/**
 * Asks ffprobe (system or WebAssembly) for the duration and whether there is an audio stream, before decoding anything.
 * Throws a UserFacingError when ffprobe cannot read the file at all, and TaskYieldedError when `yieldSignal`
 * ends a system ffprobe early (the WebAssembly one runs to its end: it is in-process and short).
 */
export async function probeMedia(
  inputPath: string,
  tools: MediaToolchain,
  yieldSignal?: AbortSignal,
): Promise<MediaProbe> {
  const wasm = isWasmMedia(tools);
  const source = wasm ? '/in/0' : inputPath;
  const args = ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', source];
  const { stdout, stderr, exitCode } = wasm
    ? await runWasmFfmpeg({ program: 'ffprobe', args, inputs: [inputPath] }).then((result) => ({
        ...result,
        exitCode: result.code,
      }))
    : await runTool('ffprobe', tools.ffprobe, args, yieldSignal);
  if (yieldSignal?.aborted) throw new TaskYieldedError();
  if (exitCode !== 0) {
    throw new UserFacingError(`The file is not a media file ffmpeg can read: ${firstErrorLine(stderr, source)}`);
  }
  const parsed = JSON.parse(stdout) as FfprobeJson;
  const duration = Number.parseFloat(parsed.format?.duration ?? '');
  return {
    durationSeconds: Number.isFinite(duration) && duration >= 0 ? duration : null,
    hasAudio: (parsed.streams ?? []).some((stream) => stream.codec_type === 'audio'),
  };
}
