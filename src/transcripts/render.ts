import { TRANSCRIPT_MEDIA_TYPES } from '../contract/media-types';
import type { TranscriptFormat } from '../contract/openapi';
import { renderSrt, renderVtt } from './render-subtitles';
import type { Transcript } from './types';

export type { Transcript } from './types';

export interface RenderedTranscript {
  body: string;
  mediaType: string;
}

/**
 * Renders a stored transcript in one of the API's transcript formats, with the media type to send.
 * @example
 * const { body, mediaType } = renderTranscript(transcript, 'srt');
 * // mediaType === 'application/x-subrip; charset=utf-8'
 */
export function renderTranscript(transcript: Transcript, format: TranscriptFormat): RenderedTranscript {
  switch (format) {
    case 'txt':
      return { body: renderTxt(transcript), mediaType: TRANSCRIPT_MEDIA_TYPES.txt };
    case 'srt':
      return { body: renderSrt(transcript), mediaType: TRANSCRIPT_MEDIA_TYPES.srt };
    case 'vtt':
      return { body: renderVtt(transcript), mediaType: TRANSCRIPT_MEDIA_TYPES.vtt };
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
