/**
 * Live captions as a subtitle file the user may edit while it grows: each finished utterance is appended as
 * one cue, numbered after whatever cues the file holds at that moment (the user may have added, removed or
 * merged some), so appending never rewrites what is already there.
 */
import { formatTimestamp } from './timestamps';

export type CaptionFormat = 'srt' | 'vtt';

export interface Caption {
  /** Seconds since the captions began. */
  start: number;
  end: number;
  text: string;
  /** Who spoke, when known: a WebVTT voice tag, an SRT `Name:` prefix. */
  speaker?: string;
}

/** The format a caption file's name asks for, or null. */
export function captionFormatOf(file: string): CaptionFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.srt')) return 'srt';
  if (lower.endsWith('.vtt')) return 'vtt';
  return null;
}

const TIMING = /^[ \t]*(?:\d+:)?\d{1,2}:\d{2}[.,]\d{3}[ \t]+-->/gm;

/** The number the next SRT cue takes: one more than the cues whose timing lines the file holds. */
export function nextCueNumber(existing: string): number {
  return (existing.match(TIMING)?.length ?? 0) + 1;
}

/**
 * The text to append for one caption to a file that now holds `existing`: a WebVTT header first when the file
 * is new, a blank line first when its last cue does not end with one.
 */
export function captionText(format: CaptionFormat, existing: string, caption: Caption): string {
  const body = caption.text.replace(/\s+/g, ' ').trim();
  const separator = format === 'vtt' ? '.' : ',';
  const start = formatTimestamp(caption.start, separator);
  const end = formatTimestamp(Math.max(caption.end, caption.start + 0.001), separator);
  const lead = leadFor(format, existing);
  if (format === 'vtt') {
    const voiced = caption.speaker ? `<v ${caption.speaker.replace(/[<>]/g, '')}>${body}` : body;
    return `${lead}${start} --> ${end}\n${voiced}\n\n`;
  }
  const spoken = caption.speaker ? `${caption.speaker}: ${body}` : body;
  return `${lead}${nextCueNumber(existing)}\n${start} --> ${end}\n${spoken}\n\n`;
}

/** What goes before a new cue: the WebVTT header in a new file, else enough newlines for one blank line. */
function leadFor(format: CaptionFormat, existing: string): string {
  if (existing.trim() === '') return format === 'vtt' ? 'WEBVTT\n\n' : '';
  if (/\n[ \t]*\n\s*$/.test(existing)) return '';
  return existing.endsWith('\n') ? '\n' : '\n\n';
}

const TIMING_END = /-->[ \t]*(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{3})/g;

/** The latest cue end a caption file holds, in seconds (0 for none): resumed captions continue after it. */
export function lastCueEnd(existing: string): number {
  let latest = 0;
  for (const [, h, m, s, ms] of existing.matchAll(TIMING_END))
    latest = Math.max(latest, Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000);
  return latest;
}
