/**
 * Reads YouTube's SBV captions: blocks of a `H:MM:SS.mmm,H:MM:SS.mmm` timing line and the cue's text
 * lines, separated by blank lines. Each cue records where its times and text are written (spans), so an
 * edit rewrites only those.
 */
import { readClock } from './clock-stamp';
import { durationError, LineIndex, SubtitleError, type ScannedCue, type ScannedSubtitles } from './scanned-cue';

const TIMING = /^(\s*)([\d:.]+)(\s*,\s*)([\d:.]+)\s*$/;

export function scanSbv(source: string): ScannedSubtitles {
  const index = new LineIndex(source);
  const cues: ScannedCue[] = [];
  const errors: SubtitleError[] = [];
  let current: ScannedCue | undefined;
  let skipping = false;
  for (let lineNumber = 1; lineNumber <= index.count; lineNumber++) {
    const { start: lineStart, text: raw } = index.line(lineNumber);
    const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    const offset = lineStart + (raw.length - text.length);
    if (text.trim() === '') {
      current = undefined;
      skipping = false;
      continue;
    }
    if (skipping) continue;
    if (current) {
      current.lines.push(text);
      current.lineNumbers.push(lineNumber);
      current.spans!.text.end = offset + text.length;
      current.spans!.block.end = offset + text.length;
      if (current.lines.length === 1) current.spans!.text.start = offset;
      continue;
    }
    const timing = TIMING.exec(text);
    const startMs = timing && readClock(timing[2]);
    const endMs = timing && readClock(timing[4]);
    if (!timing || startMs === undefined || startMs === null || endMs === undefined || endMs === null) {
      errors.push(
        new SubtitleError(
          lineNumber,
          `expected a timing such as 0:00:01.000,0:00:03.500, got "${text.trim().slice(0, 60)}"`,
        ),
      );
      skipping = true;
      continue;
    }
    const startAt = offset + timing[1].length;
    const endAt = startAt + timing[2].length + timing[3].length;
    current = {
      index: cues.length + 1,
      start: startMs / 1000,
      end: endMs / 1000,
      line: lineNumber,
      lines: [],
      lineNumbers: [],
      spans: {
        block: { start: offset, end: offset + text.length },
        start: { start: startAt, end: startAt + timing[2].length },
        end: { start: endAt, end: endAt + timing[4].length },
        text: { start: offset + text.length, end: offset + text.length },
        lineBreak: index.eol,
      },
    };
    cues.push(current);
    const duration = durationError(current);
    if (duration) errors.push(duration);
  }
  return { cues, errors, lineCount: index.count };
}
