import { TRANSCRIPT_MEDIA_TYPES } from '../contract/media-types';
import type { TranscriptFormat } from '../contract/openapi';
import { DEFAULT_SUBTITLE_STYLE, type SubtitleStyle } from '../contract/subtitle-style';
import { cueLimitsOf, layoutCues } from './cues';
import { formatSrt, formatVtt } from './render-subtitles';
import type { Transcript } from './types';

export type { Transcript } from './types';

export interface RenderedTranscript {
  body: string;
  mediaType: string;
  /** SRT and WebVTT: the cues (numbered from 1) that hold a word longer than a line, the one allowed excess; absent when none. */
  longWordCues?: number[];
}

/**
 * Renders a stored transcript in one of the API's transcript formats, with the media type to send. SRT and
 * WebVTT cues are laid out from the stored words with `style` (src/subtitles/style.ts).
 * @example
 * const { body, mediaType } = renderTranscript(transcript, 'srt', resolveStyle('bbc'));
 * // mediaType === 'application/x-subrip; charset=utf-8'
 */
export function renderTranscript(
  transcript: Transcript,
  format: TranscriptFormat,
  style: SubtitleStyle = DEFAULT_SUBTITLE_STYLE,
): RenderedTranscript {
  switch (format) {
    case 'txt':
      return { body: renderTxt(transcript), mediaType: TRANSCRIPT_MEDIA_TYPES.txt };
    case 'srt':
    case 'vtt': {
      const { cues, longWordCues } = layoutCues(transcript.segments, cueLimitsOf(style));
      return {
        body: format === 'srt' ? formatSrt(cues) : formatVtt(cues),
        mediaType: TRANSCRIPT_MEDIA_TYPES[format],
        ...(longWordCues.length > 0 ? { longWordCues: longWordCues.map((i) => i + 1) } : {}),
      };
    }
    case 'json-simple':
      return { body: renderJson(toSimpleJson(transcript)), mediaType: TRANSCRIPT_MEDIA_TYPES['json-simple'] };
    case 'json-full':
      return { body: renderJson(transcript), mediaType: TRANSCRIPT_MEDIA_TYPES['json-full'] };
    default:
      throw new TypeError(`Expected a transcript format, got ${String(format)}`);
  }
}

/** One line per segment, `Speaker N: ` in front when diarized. */
export function renderTxt(transcript: Transcript): string {
  return transcript.segments
    .map((segment) => (segment.speaker === undefined ? segment.text : `${segment.speaker}: ${segment.text}`))
    .map((line) => `${line}\n`)
    .join('');
}

export interface SimpleTranscript {
  text: string;
  language: string;
  durationSeconds: number;
  segments: Array<{ start: number; end: number; text: string; speaker?: string }>;
}

export function toSimpleJson(transcript: Transcript): SimpleTranscript {
  return {
    text: transcript.text,
    language: transcript.language,
    durationSeconds: transcript.durationSeconds,
    segments: transcript.segments.map(({ start, end, text, speaker }) =>
      speaker === undefined ? { start, end, text } : { start, end, text, speaker },
    ),
  };
}

function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
