/**
 * Reads the cues of an ASS (Advanced SubStation Alpha) or SSA script: the `Dialogue:` lines of its [Events]
 * section, their fields found by the section's `Format:` line. Script info, styles, comments, fonts and
 * override tags are left where they are; each cue records where its start, end and text are written so an
 * edit rewrites only those.
 */
import { readClock } from './clock-stamp';
import { durationError, LineIndex, SubtitleError, type ScannedCue, type ScannedSubtitles } from './scanned-cue';

/** The fields of an [Events] line when the section has no `Format:` line (ASS's; SSA has `Marked` first). */
const DEFAULT_FIELDS = ['layer', 'start', 'end', 'style', 'name', 'marginl', 'marginr', 'marginv', 'effect', 'text'];

export function scanAss(source: string): ScannedSubtitles {
  const index = new LineIndex(source);
  const cues: ScannedCue[] = [];
  const errors: SubtitleError[] = [];
  let section = '';
  let sawEvents = false;
  let fields = DEFAULT_FIELDS;
  for (let lineNumber = 1; lineNumber <= index.count; lineNumber++) {
    const { start: lineStart, text } = index.line(lineNumber);
    const content = lineNumber === 1 ? text.replace(/^\uFEFF/, '') : text;
    const offset = lineStart + (text.length - content.length);
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(content);
    if (header) {
      section = header[1].trim().toLowerCase();
      if (section === 'events') sawEvents = true;
      continue;
    }
    if (section !== 'events') continue;
    const format = /^\s*Format\s*:(.*)$/i.exec(content);
    if (format) {
      fields = format[1].split(',').map((field) => field.trim().toLowerCase());
      continue;
    }
    const dialogue = /^\s*Dialogue\s*:\s?/i.exec(content);
    if (!dialogue) continue;
    const cue = readDialogue(content, offset, dialogue[0].length, fields, lineNumber, cues.length + 1);
    if (cue instanceof SubtitleError) {
      errors.push(cue);
      continue;
    }
    cues.push(cue);
    const duration = durationError(cue);
    if (duration) errors.push(duration);
  }
  if (!sawEvents)
    errors.push(new SubtitleError(1, 'an ASS/SSA script needs an [Events] section with its Dialogue lines'));
  return { cues, errors, lineCount: index.count };
}

/** One `Dialogue:` line as a cue: its fields split on the first commas, the text field taking the rest. */
function readDialogue(
  line: string,
  offset: number,
  from: number,
  fields: string[],
  lineNumber: number,
  position: number,
): ScannedCue | SubtitleError {
  const pieces: { start: number; end: number }[] = [];
  let at = from;
  for (let i = 0; i < fields.length - 1; i++) {
    const comma = line.indexOf(',', at);
    if (comma < 0) break;
    pieces.push({ start: at, end: comma });
    at = comma + 1;
  }
  pieces.push({ start: at, end: line.length });
  const field = (name: string): { start: number; end: number } | undefined => {
    const i = fields.indexOf(name);
    return i >= 0 && i < pieces.length ? pieces[i] : undefined;
  };
  const [startField, endField, textField] = [field('start'), field('end'), field('text')];
  if (!startField || !endField || !textField || pieces.length < fields.length) {
    return new SubtitleError(
      lineNumber,
      `the Dialogue line has fewer fields than its Format line names (${fields.length})`,
    );
  }
  const trimmed = (piece: { start: number; end: number }): { start: number; end: number } => {
    const raw = line.slice(piece.start, piece.end);
    const lead = raw.length - raw.trimStart().length;
    return { start: piece.start + lead, end: piece.start + lead + raw.trim().length };
  };
  const startSpan = trimmed(startField);
  const endSpan = trimmed(endField);
  const startMs = readClock(line.slice(startSpan.start, startSpan.end));
  const endMs = readClock(line.slice(endSpan.start, endSpan.end));
  if (startMs === undefined || endMs === undefined) {
    const bad =
      startMs === undefined ? line.slice(startSpan.start, startSpan.end) : line.slice(endSpan.start, endSpan.end);
    return new SubtitleError(
      lineNumber,
      `cannot read the time "${bad.slice(0, 30)}" (expected H:MM:SS.cc such as 0:00:01.50)`,
    );
  }
  const text = line.slice(textField.start);
  const lines = text.split('\\N');
  return {
    index: position,
    start: startMs / 1000,
    end: endMs / 1000,
    line: lineNumber,
    lines,
    lineNumbers: lines.map(() => lineNumber),
    spans: {
      block: { start: offset, end: offset + line.length },
      start: { start: offset + startSpan.start, end: offset + startSpan.end },
      end: { start: offset + endSpan.start, end: offset + endSpan.end },
      text: { start: offset + textField.start, end: offset + line.length },
      lineBreak: '\\N',
    },
  };
}
