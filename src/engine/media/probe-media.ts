import { UserFacingError } from '../protocol';
import { firstErrorLine, runTool, type MediaTools } from './ffmpeg';

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
 * Asks ffprobe for the duration and whether there is an audio stream, before decoding anything.
 * Throws a UserFacingError when ffprobe cannot read the file at all.
 */
export async function probeMedia(inputPath: string, tools: MediaTools): Promise<MediaProbe> {
  const args = ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', inputPath];
  const { stdout, stderr, exitCode } = await runTool('ffprobe', tools.ffprobe, args);
  if (exitCode !== 0) {
    throw new UserFacingError(`The file is not a media file ffmpeg can read: ${firstErrorLine(stderr, inputPath)}`);
  }
  const parsed = JSON.parse(stdout) as FfprobeJson;
  const duration = Number.parseFloat(parsed.format?.duration ?? '');
  return {
    durationSeconds: Number.isFinite(duration) && duration >= 0 ? duration : null,
    hasAudio: (parsed.streams ?? []).some((stream) => stream.codec_type === 'audio'),
  };
}
