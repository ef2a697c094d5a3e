/**
 * The subtitle tracks a video already carries, and what becomes of each when a new track is embedded in a
 * copy: copied as they are where the copy's container takes their codec, converted where it takes only
 * another text codec, left out when they are the new track's language and the user asked to replace it, or
 * when they are pictures the container cannot hold (said in the result, never silently).
 */
import type { EmbedContainer } from '../../contract/media-types';
import type { SubtitleFormat } from '../../subtitles/scan';
import { runTool } from './ffmpeg';

export interface ExistingTrack {
  /** The stream's index in the video file. */
  index: number;
  codec: string;
  /** ISO 639-2, as tagged; undefined when untagged. */
  language?: string;
  title?: string;
}

/** How a track goes into the copy: its codec there (`copy` to keep its packets), or why it is left out. */
export type TrackPlan =
  { track: ExistingTrack; codec: string } | { track: ExistingTrack; left: 'replaced' | 'unsupported' };

/** The text codec each container takes for a new track (ASS/SSA keep their styles in Matroska). */
const NEW_TRACK_CODEC: Record<string, (format: SubtitleFormat) => string> = {
  '.mp4': () => 'mov_text',
  '.m4v': () => 'mov_text',
  '.mov': () => 'mov_text',
  '.webm': () => 'webvtt',
  '.mkv': (format) => (format === 'ass' || format === 'ssa' ? 'ass' : 'subrip'),
} satisfies Record<EmbedContainer, (format: SubtitleFormat) => string>;

/** The codecs each container holds as they are; Matroska holds any but MP4's own `mov_text`. */
const COPIED: Record<string, ReadonlySet<string> | 'any'> = {
  '.mp4': new Set(['mov_text', 'dvd_subtitle']),
  '.m4v': new Set(['mov_text', 'dvd_subtitle']),
  '.mov': new Set(['mov_text', 'dvd_subtitle', 'eia_608']),
  '.webm': new Set(['webvtt']),
  '.mkv': 'any',
} satisfies Record<EmbedContainer, ReadonlySet<string> | 'any'>;

/** Text codecs ffmpeg converts between; a picture codec (PGS, DVB) cannot become text. */
const TEXT_CODECS = new Set([
  'subrip',
  'srt',
  'ass',
  'ssa',
  'webvtt',
  'mov_text',
  'text',
  'microdvd',
  'subviewer',
  'subviewer1',
  'sami',
  'realtext',
  'jacosub',
  'mpl2',
  'pjs',
  'vplayer',
  'stl',
]);

export function newTrackCodec(extension: string, format: SubtitleFormat): string | undefined {
  return NEW_TRACK_CODEC[extension.toLowerCase()]?.(format);
}

/** The video's subtitle streams, as ffprobe sees them. */
export async function probeSubtitleTracks(ffprobe: string, video: string): Promise<ExistingTrack[]> {
  const probed = await runTool('ffprobe', ffprobe, [
    '-v',
    'error',
    '-select_streams',
    's',
    '-show_entries',
    'stream=index,codec_name:stream_tags=language,title,handler_name',
    '-of',
    'json',
    video,
  ]);
  if (probed.exitCode !== 0) return [];
  const found = JSON.parse(probed.stdout || '{}') as {
    streams?: {
      index: number;
      codec_name?: string;
      tags?: { language?: string; title?: string; handler_name?: string };
    }[];
  };
  return (found.streams ?? []).map((stream) => {
    const title = trackTitle(stream.tags ?? {});
    return {
      index: stream.index,
      codec: stream.codec_name ?? 'unknown',
      ...(stream.tags?.language ? { language: stream.tags.language } : {}),
      ...(title ? { title } : {}),
    };
  });
}

/** MP4 keeps a track's title as its handler name; ffmpeg names untitled ones `SubtitleHandler`. */
export function trackTitle(tags: { title?: string; handler_name?: string }): string | undefined {
  if (tags.title) return tags.title;
  return tags.handler_name && tags.handler_name !== 'SubtitleHandler' ? tags.handler_name : undefined;
}

/** Whether the container writes a track's title as its handler name (MP4 and QuickTime). */
export const titleIsHandlerName = (extension: string): boolean =>
  ['.mp4', '.m4v', '.mov'].includes(extension.toLowerCase());

/** What becomes of each existing track in a copy of extension `extension`. */
export function planTracks(
  tracks: readonly ExistingTrack[],
  extension: string,
  language: string,
  replaceSameLanguage: boolean,
): TrackPlan[] {
  const copied = COPIED[extension.toLowerCase()];
  const textCodec = NEW_TRACK_CODEC[extension.toLowerCase()]?.('srt') ?? 'subrip';
  return tracks.map((track) => {
    if (replaceSameLanguage && language !== 'und' && track.language === language)
      return { track, left: 'replaced' as const };
    if ((copied === 'any' && track.codec !== 'mov_text') || (copied !== 'any' && copied?.has(track.codec)))
      return { track, codec: 'copy' };
    if (TEXT_CODECS.has(track.codec)) return { track, codec: textCodec };
    return { track, left: 'unsupported' as const };
  });
}
