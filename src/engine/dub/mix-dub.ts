/**
 * The last stage of a dub: the narration mixed with the original audio (ducked under the dub while it speaks,
 * with ffmpeg's sidechain compressor, or left out) into a new audio track, muxed into a copy of the video
 * whose video packets and original audio are copied, not re-encoded. The new track is the first and default
 * audio track, tagged with its language, exactly as long as the video.
 */
import path from 'node:path';
import { DUB_CONTAINERS, type DubContainer } from '../../contract/media-types';
import { UserFacingError } from '../../engine-api/protocol';
import { firstErrorLine, runTool, type MediaTools } from '../media/ffmpeg';
import type { DubMix } from '../../engine-api/dub-types';

/** The dub track's codec by output container. */
const AUDIO_CODECS: Record<string, { codec: string; args: string[] }> = {
  '.mp4': { codec: 'aac', args: ['-c:a:0', 'aac', '-b:a:0', '192k'] },
  '.m4v': { codec: 'aac', args: ['-c:a:0', 'aac', '-b:a:0', '192k'] },
  '.mov': { codec: 'aac', args: ['-c:a:0', 'aac', '-b:a:0', '192k'] },
  '.mkv': { codec: 'aac', args: ['-c:a:0', 'aac', '-b:a:0', '192k'] },
  '.webm': { codec: 'opus', args: ['-c:a:0', 'libopus', '-b:a:0', '128k'] },
} satisfies Record<DubContainer, { codec: string; args: string[] }>;

/** How much the original is lowered under the dub: the compressor's ratio, and the level it starts at. */
const DUCK = 'sidechaincompress=threshold=0.015:ratio=12:attack=15:release=350:makeup=1';
const MIX_RATE = 48_000;

export interface VideoFacts {
  durationSeconds: number;
  hasAudio: boolean;
}

/** The video's length (its container's) and whether it has an audio track. */
export async function probeVideo(videoPath: string, tools: MediaTools): Promise<VideoFacts> {
  const probed = await runTool('ffprobe', tools.ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type',
    '-of',
    'json',
    videoPath,
  ]);
  if (probed.exitCode !== 0)
    throw new UserFacingError(`The video cannot be read: ${firstErrorLine(probed.stderr, videoPath)}.`);
  const found = JSON.parse(probed.stdout || '{}') as {
    format?: { duration?: string };
    streams?: Array<{ codec_type?: string }>;
  };
  const streams = found.streams ?? [];
  if (!streams.some((stream) => stream.codec_type === 'video'))
    throw new UserFacingError(`${path.basename(videoPath)} has no video track to dub.`);
  const durationSeconds = Number(found.format?.duration);
  if (!(durationSeconds > 0))
    throw new UserFacingError(
      `${path.basename(videoPath)} does not say how long it is, so the dub cannot be timed to it.`,
    );
  return { durationSeconds, hasAudio: streams.some((stream) => stream.codec_type === 'audio') };
}

/** The filter graph that makes `[dub]` from the original audio (input 0) and the narration (input 1). */
export function dubFilterGraph(mix: DubMix, durationSeconds: number, hasOriginalAudio: boolean): string {
  const format = `aresample=${MIX_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`;
  const exact = `apad=whole_dur=${durationSeconds},atrim=end=${durationSeconds}`;
  if (mix === 'replace' || !hasOriginalAudio) return `[1:a]${format},${exact}[dub]`;
  return [
    `[1:a]${format},apad=whole_dur=${durationSeconds},asplit=2[voice][key]`,
    `[0:a]${format}[bed]`,
    `[bed][key]${DUCK}[ducked]`,
    `[ducked][voice]amix=inputs=2:duration=longest:normalize=0,${exact}[dub]`,
  ].join(';');
}

export interface MuxDub {
  videoPath: string;
  narrationPath: string;
  outputPath: string;
  mix: DubMix;
  /** ISO 639-2 code of the dub's language. */
  language: string;
  video: VideoFacts;
}

/** Writes the dubbed copy to `outputPath` (the caller renames it into place); answers the dub track's codec. */
export async function muxDub(request: MuxDub, tools: MediaTools): Promise<string> {
  const audio = AUDIO_CODECS[containerOf(request.outputPath)];
  if (!audio)
    throw new UserFacingError(
      `A dub can be written to ${DUB_CONTAINERS.join(', ')} files, not ${path.basename(request.outputPath)}.`,
    );
  const keepOriginal = request.video.hasAudio;
  const args = [
    '-v',
    'error',
    '-nostdin',
    '-y',
    '-i',
    request.videoPath,
    '-i',
    request.narrationPath,
    '-filter_complex',
    dubFilterGraph(request.mix, request.video.durationSeconds, keepOriginal),
    '-map',
    '0:v',
    '-map',
    '[dub]',
    ...(keepOriginal ? ['-map', '0:a'] : []),
    '-c:v',
    'copy',
    ...audio.args,
    ...(keepOriginal ? ['-c:a:1', 'copy', '-disposition:a:1', '0'] : []),
    '-disposition:a:0',
    'default',
    '-metadata:s:a:0',
    `language=${request.language}`,
    '-map_metadata',
    '0',
    '-f',
    formatOf(request.outputPath),
    request.outputPath,
  ];
  const muxed = await runTool('ffmpeg', tools.ffmpeg, args);
  if (muxed.exitCode !== 0)
    throw new UserFacingError(
      `ffmpeg could not write the dubbed video: ${firstErrorLine(muxed.stderr, request.outputPath)}.`,
    );
  return audio.codec;
}

/** The container ffmpeg writes, named since the file being written ends in `.partial`. */
function formatOf(outputPath: string): string {
  const extension = containerOf(outputPath);
  if (extension === '.mkv') return 'matroska';
  if (extension === '.webm') return 'webm';
  if (extension === '.mov') return 'mov';
  return 'mp4';
}

/** The output's extension, of the name it will have once renamed into place. */
const containerOf = (outputPath: string): string => path.extname(outputPath.replace(/\.partial$/, '')).toLowerCase();
