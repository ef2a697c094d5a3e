/**
 * Writing a new subtitle file in any format we write (SubRip, WebVTT, ASS, TTML, SBV), laid out from a
 * transcript with the subtitle style; used wherever the product saves subtitles to a file (the editor's
 * transcribe and align commands, `cli.js align`). The API's transcript route keeps its own five formats.
 */
import { DEFAULT_SUBTITLE_STYLE, type SubtitleStyle } from '../contract/subtitle-style';
import { cueLimitsOf, layoutCues } from './cues';
import { formatSrt, formatVtt } from './render-subtitles';
import type { Transcript } from './types';
import { formatAss } from './write-ass';
import { formatSbv } from './write-sbv';
import { formatTtml } from './write-ttml';

export const SUBTITLE_FILE_FORMATS = ['srt', 'vtt', 'ass', 'ttml', 'sbv'] as const;
export type SubtitleFileFormat = (typeof SUBTITLE_FILE_FORMATS)[number];

/** The format a file name asks for (`.dfxp` is TTML; `.ssa` is written as ASS, which SSA readers take), or undefined. */
export function subtitleFileFormatOf(fileName: string): SubtitleFileFormat | undefined {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1].toLowerCase();
  if (extension === 'dfxp') return 'ttml';
  if (extension === 'ssa') return 'ass';
  return SUBTITLE_FILE_FORMATS.find((format) => format === extension);
}

/** The transcript as a subtitle file: cues laid out with `style`, written in `format`. */
export function renderSubtitleFile(
  transcript: Transcript,
  format: SubtitleFileFormat,
  style: SubtitleStyle = DEFAULT_SUBTITLE_STYLE,
): string {
  const { cues } = layoutCues(transcript.segments, cueLimitsOf(style));
  switch (format) {
    case 'srt':
      return formatSrt(cues);
    case 'vtt':
      return formatVtt(cues);
    case 'ass':
      return formatAss(cues);
    case 'ttml':
      return formatTtml(cues, transcript.language);
    case 'sbv':
      return formatSbv(cues);
    default:
      throw new TypeError(`Expected a subtitle file format, got ${String(format)}`);
  }
}
