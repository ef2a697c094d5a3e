import { execFile } from 'node:child_process';
import { UserFacingError } from '../../engine-api/protocol';
import { engineConfig, type EngineConfig } from '../../engine-api/engine-config';
import { mediaToolsFor, type MediaTools } from '../../engine-api/media-toolchain';

export type { MediaTools };

export const FFMPEG_ENV = 'SPEECH_STUDIO_FFMPEG';
export const FFPROBE_ENV = 'SPEECH_STUDIO_FFPROBE';

/** The configured ffmpeg and ffprobe (this process's configuration by default; see mediaToolsFor). */
export function findMediaTools(config: Pick<EngineConfig, 'ffmpeg' | 'ffprobe'> = engineConfig()): MediaTools {
  return mediaToolsFor(config);
}

export function toolNotFoundError(tool: 'ffmpeg' | 'ffprobe'): UserFacingError {
  if (tool === 'ffmpeg') {
    return new UserFacingError(`ffmpeg was not found; install it or set ${FFMPEG_ENV} to the path of ffmpeg.`);
  }
  return new UserFacingError(
    `ffmpeg was not found (its ffprobe is missing); install ffmpeg or set ${FFMPEG_ENV} to the path of ffmpeg, ` +
      `with ffprobe beside it, or ${FFPROBE_ENV} to the path of ffprobe.`,
  );
}

/** Whether a spawn failed because the executable does not exist (as opposed to failing while it ran). */
export function isMissingExecutable(error: unknown): boolean {
  const failure = error as NodeJS.ErrnoException | null;
  return failure?.code === 'ENOENT' && (failure.syscall?.startsWith('spawn') ?? false);
}

/**
 * The first line of an ffmpeg/ffprobe error output, without what means nothing to the user: the internal
 * input path ffmpeg puts in front, and the `[mp3 @ 0x55d0…]` component tags.
 */
export function firstErrorLine(stderr: string, inputPath: string): string {
  const line = stderr
    .split(/\r?\n/)
    .map((text) => text.replace(/^\[[^\]]* @ 0x[0-9a-f]+\]\s*/i, '').trim())
    .find((text) => text.length > 0);
  if (!line) return 'no details given';
  return line.startsWith(`${inputPath}: `) ? line.slice(inputPath.length + 2) : line.split(inputPath).join('the file');
}

export interface ToolOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Runs a short-lived tool to the end and gives back its output; a missing executable throws toolNotFoundError.
 * `stop` ends the tool at once (its output is then partial and its exit code not 0: the caller checks `stop`).
 */
export function runTool(
  tool: 'ffmpeg' | 'ffprobe',
  executable: string,
  args: readonly string[],
  stop?: AbortSignal,
): Promise<ToolOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      executable,
      args,
      {
        maxBuffer: 16 * 1024 * 1024,
        windowsHide: true,
        ...(stop ? { signal: stop, killSignal: 'SIGKILL' as const } : {}),
      },
      (error, stdout, stderr) => {
        if (error && isMissingExecutable(error)) {
          reject(toolNotFoundError(tool));
          return;
        }
        const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ stdout, stderr, exitCode });
      },
    );
  });
}
