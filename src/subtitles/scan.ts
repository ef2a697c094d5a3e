/**
 * Reads the cues of a subtitle file in file order (SRT and WebVTT here; ASS/SSA, TTML and SBV in their own
 * readers), keeping each cue's text lines as written and the line numbers of everything, and collecting
 * what cannot be read instead of stopping at it: the narration reader (parse.ts) stops at the first error, the checker (check.ts) reports them all.
 */
import { scanAss } from './scan-ass';
import { scanSbv } from './scan-sbv';
import { scanTtml } from './scan-ttml';
import { SubtitleError, type ScannedCue, type ScannedSubtitles, type SubtitleFormat } from './scanned-cue';

export { SubtitleError, subtitleFormatOfPath, SUBTITLE_FORMATS } from './scanned-cue';
export type { CueSpans, ScannedCue, ScannedSubtitles, SubtitleFormat, TimeBase } from './scanned-cue';

const TIMESTAMP = String.raw`(?:(\d{1,3}):)?([0-5]?\d):([0-5]\d)(?:[.,:](\d{1,3}))?`;
/** A timing line, or something meant to be one (`->`, a dash other than `-`), so errors can point at it. */
const looksLikeTiming = (line: string): boolean => line.includes('-->') || /^\s*\d[\d:.,]*\s*[-–—=]+>\s*\d/.test(line);
const TIMING = new RegExp(String.raw`^\s*${TIMESTAMP}\s*-->\s*${TIMESTAMP}(?:\s+.*)?$`);

function seconds(hours: string | undefined, minutes: string, secs: string, fraction: string | undefined): number {
  const millis = fraction ? Number(fraction.padEnd(3, '0')) : 0;
  return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(secs) + millis / 1000;
}

/**
 * Scans subtitles as players read them: a byte-order mark, CRLF or CR line ends, missing cue numbers,
 * hours left out, `.` or `,` before the milliseconds, WebVTT cue settings, NOTE/STYLE/REGION blocks, extra
 * blank lines, and cue text that runs on after a stray blank line (it stays with the cue above).
 */
export function scanSubtitles(source: string, format: SubtitleFormat): ScannedSubtitles {
  if (format === 'ass' || format === 'ssa') return scanAss(source);
  if (format === 'ttml') return scanTtml(source);
  if (format === 'sbv') return scanSbv(source);
  const lines = source.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const cues: ScannedCue[] = [];
  const errors: SubtitleError[] = [];
  let at = 0;
  /** Inside a WebVTT NOTE, STYLE or REGION block, the header block, or the text of an unreadable cue. */
  let skipping = false;
  if (format === 'vtt') {
    if (/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) {
      at = 1;
      skipping = true;
    } else {
      errors.push(new SubtitleError(1, 'a WebVTT file must start with "WEBVTT"'));
    }
  }
  let current: ScannedCue | undefined;
  /** True from a timing line to the next blank line: the lines in between are the cue's text. */
  let inCue = false;

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
      if (!match) {
        errors.push(new SubtitleError(lineNumber, `cannot read the cue timing "${line.trim().slice(0, 60)}"`));
        current = undefined;
        skipping = true;
        continue;
      }
      const start = seconds(match[1], match[2], match[3], match[4]);
      const end = seconds(match[5], match[6], match[7], match[8]);
      if (end === start)
        errors.push(new SubtitleError(lineNumber, 'the cue has no duration: it starts and ends at the same time'));
      else if (!(end > start)) errors.push(new SubtitleError(lineNumber, 'the cue ends before it starts'));
      current = { index: cues.length + 1, start, end, line: lineNumber, lines: [], lineNumbers: [] };
      cues.push(current);
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
      current.lines.push(line);
      current.lineNumbers.push(lineNumber);
      inCue = true;
    } else if (format === 'srt') {
      errors.push(
        new SubtitleError(lineNumber, 'expected a cue number or a timing such as 00:00:01,000 --> 00:00:02,500'),
      );
      skipping = true;
    }
  }
  return { cues, errors, lineCount: lines.length };
}
