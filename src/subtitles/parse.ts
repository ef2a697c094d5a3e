/**
 * Tolerant SRT and WebVTT readers for narration. They accept what players accept: a byte-order mark,
 * CRLF or CR line ends, missing cue numbers, hours left out, `.` or `,` before the milliseconds, WebVTT cue
 * settings, NOTE/STYLE/REGION blocks, extra blank lines and cues whose text runs on after a stray blank
 * line. What cannot be read is a SubtitleError naming the line.
 */
import { cueWords } from './cue-text';

export type SubtitleFormat = 'srt' | 'vtt';

export interface SubtitleCue {
  /** Position in the file, from 1. */
  index: number;
  /** Seconds. */
  start: number;
  end: number;
  text: string;
  speaker?: string;
  /** Line of the cue's timing, from 1. */
  line: number;
}

export class SubtitleError extends Error {
  constructor(readonly line: number, readonly reason: string) {
    super(`line ${line}: ${reason}`);
    this.name = 'SubtitleError';
  }
}

const TIMESTAMP = String.raw`(?:(\d{1,3}):)?([0-5]?\d):([0-5]\d)(?:[.,:](\d{1,3}))?`;
/** A timing line, or something meant to be one (`->`, a dash other than `-`), so errors can point at it. */
const looksLikeTiming = (line: string): boolean => line.includes('-->') || /^\s*\d[\d:.,]*\s*[-–—=]+>\s*\d/.test(line);
const TIMING = new RegExp(String.raw`^\s*${TIMESTAMP}\s*-->\s*${TIMESTAMP}(?:\s+.*)?$`);

function seconds(hours: string | undefined, minutes: string, secs: string, fraction: string | undefined): number {
  const millis = fraction ? Number(fraction.padEnd(3, '0')) : 0;
  return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(secs) + millis / 1000;
}

interface Draft {
  start: number;
  end: number;
  line: number;
  lines: string[];
}

/** Parses subtitles; cues come back in time order, each with clean text and its speaker, if named. */
export function parseSubtitles(source: string, format: SubtitleFormat): SubtitleCue[] {
  const lines = source.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let at = 0;
  if (format === 'vtt') {
    if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) throw new SubtitleError(1, 'a WebVTT file must start with "WEBVTT"');
    at = 1;
  }
  const drafts: Draft[] = [];
  let current: Draft | undefined;
  /** True from a timing line to the next blank line: the lines in between are the cue's text. */
  let inCue = false;
  /** Inside a WebVTT NOTE, STYLE or REGION block, or the header block. */
  let skipping = format === 'vtt';

  for (; at < lines.length; at++) {
    const line = lines[at];
    const lineNumber = at + 1;
    if (line.trim() === '') {
      inCue = false;
      skipping = false;
      continue;
    }
    if (skipping) continue;
    if (looksLikeTiming(line)) {
      const match = TIMING.exec(line);
      if (!match) throw new SubtitleError(lineNumber, `cannot read the cue timing "${line.trim().slice(0, 60)}"`);
      const start = seconds(match[1], match[2], match[3], match[4]);
      const end = seconds(match[5], match[6], match[7], match[8]);
      if (end === start) throw new SubtitleError(lineNumber, 'the cue has no duration: it starts and ends at the same time');
      if (!(end > start)) throw new SubtitleError(lineNumber, 'the cue ends before it starts');
      current = { start, end, line: lineNumber, lines: [] };
      drafts.push(current);
      inCue = true;
      continue;
    }
    // A line right before a timing is that cue's number or identifier, even without a blank line before it.
    if (looksLikeTiming(lines[at + 1] ?? '')) continue;
    if (format === 'vtt' && !inCue && /^(NOTE|STYLE|REGION)(\s|$)/.test(line)) {
      skipping = true;
      continue;
    }
    if (current) {
      // Text after a stray blank line, with no timing before it, still belongs to the cue above.
      current.lines.push(line);
      inCue = true;
    } else if (format === 'srt') {
      throw new SubtitleError(lineNumber, 'expected a cue number or a timing such as 00:00:01,000 --> 00:00:02,500');
    }
  }
  if (drafts.length === 0) throw new SubtitleError(lines.length, 'the file has no cues');
  return drafts
    .map((draft, i) => ({ draft, i }))
    .sort((a, b) => a.draft.start - b.draft.start || a.i - b.i)
    .map(({ draft, i }) => {
      const words = cueWords(draft.lines);
      return { index: i + 1, start: draft.start, end: draft.end, line: draft.line, ...words };
    });
}
