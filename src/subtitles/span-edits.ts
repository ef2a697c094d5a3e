/**
 * The edits of edits.ts for cues that know where their times and text are written (ASS/SSA, TTML, SBV: see
 * scanned-cue.ts): each rewrites only the spans it changes, so styles, script info, override tags, TTML
 * attributes and everything between the cues stay byte for byte as they were.
 */
import { writeClock } from './clock-stamp';
import type { CueSpans, ScannedCue, Span, SubtitleFormat, TimeBase } from './scanned-cue';
import { writeTtmlTime } from './ttml-time';

/** Replace `source.slice(start, end)` with `text`; offsets are UTF-16 indices into the source given. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export interface SpanDocument {
  source: string;
  format: SubtitleFormat;
  timeBase?: TimeBase;
}

const DEFAULT_TIME_BASE: TimeBase = { frameRate: 30, tickRate: 1 };

/** `totalMs` written as the format writes times, in the manner of `like` (the stamp it replaces). */
export function writeStamp(doc: SpanDocument, totalMs: number, like: string): string {
  if (doc.format === 'ttml') return writeTtmlTime(totalMs, like, doc.timeBase ?? DEFAULT_TIME_BASE);
  return writeClock(totalMs, like, doc.format === 'sbv' ? 3 : 2);
}

const spansOf = (cue: ScannedCue): CueSpans => {
  if (!cue.spans) throw new TypeError(`Expected a cue with spans, got cue ${cue.index} without`);
  return cue.spans;
};

const slice = (doc: SpanDocument, span: Span): string => doc.source.slice(span.start, span.end);

/** The new text of the cue's start and end spans (undefined where a time is kept). */
function stampTexts(
  doc: SpanDocument,
  cue: ScannedCue,
  times: { start?: number; end?: number },
): { start?: string; end?: string } {
  const spans = spansOf(cue);
  const startMs = times.start ?? Math.round(cue.start * 1000);
  const start = times.start === undefined ? undefined : writeStamp(doc, times.start, slice(doc, spans.start));
  let end: string | undefined;
  if (spans.endIsDuration) {
    const endMs = times.end ?? Math.round(cue.end * 1000);
    if (times.start !== undefined || times.end !== undefined)
      end = writeStamp(doc, endMs - startMs, slice(doc, spans.end));
  } else if (times.end !== undefined) {
    end = writeStamp(doc, times.end, slice(doc, spans.end));
  }
  return { start, end };
}

/** Edits of the cue's time spans for new times (ms); a time written as it already is makes no edit. */
export function retimeSpans(doc: SpanDocument, cue: ScannedCue, times: { start?: number; end?: number }): TextEdit[] {
  const spans = spansOf(cue);
  const texts = stampTexts(doc, cue, times);
  const edits: TextEdit[] = [];
  for (const which of ['start', 'end'] as const) {
    const text = texts[which];
    if (text !== undefined && text !== slice(doc, spans[which])) edits.push({ ...spans[which], text });
  }
  return edits;
}

/** The cue's text written as `lines` (joined with the cue's own line break). */
export function replaceTextSpan(doc: SpanDocument, cue: ScannedCue, lines: readonly string[]): TextEdit[] {
  const spans = spansOf(cue);
  const text = lines.join(spans.lineBreak);
  return text === slice(doc, spans.text) ? [] : [{ ...spans.text, text }];
}

/** The cue's whole block as it would read with other times and/or lines; the rest of the block as written. */
export function blockWith(
  doc: SpanDocument,
  cue: ScannedCue,
  change: { start?: number; end?: number; lines?: readonly string[] },
): string {
  const spans = spansOf(cue);
  const texts = stampTexts(doc, cue, change);
  const replacements: TextEdit[] = [];
  if (texts.start !== undefined) replacements.push({ ...spans.start, text: texts.start });
  if (texts.end !== undefined) replacements.push({ ...spans.end, text: texts.end });
  if (change.lines) replacements.push({ ...spans.text, text: change.lines.join(spans.lineBreak) });
  let text = slice(doc, spans.block);
  for (const edit of replacements.sort((a, b) => b.start - a.start)) {
    text = text.slice(0, edit.start - spans.block.start) + edit.text + text.slice(edit.end - spans.block.start);
  }
  return text;
}

/** The whitespace before the cue's block back to the last character that is not, or undefined at the file start. */
function whitespaceBefore(doc: SpanDocument, cue: ScannedCue): Span | undefined {
  const at = spansOf(cue).block.start;
  let from = at;
  while (from > 0 && /\s/.test(doc.source[from - 1])) from--;
  return from === 0 ? undefined : { start: from, end: at };
}

/** What goes between the two cues a split makes: what stands before this cue, or the format's usual break. */
function separator(doc: SpanDocument, cue: ScannedCue): string {
  const before = whitespaceBefore(doc, cue);
  const eol = /\r\n|\r|\n/.exec(doc.source)?.[0] ?? '\n';
  if (before && /\r|\n/.test(slice(doc, before))) return slice(doc, before);
  return doc.format === 'sbv' ? eol + eol : eol;
}

/** The cue as two: the first ending at `firstEnd` with `firstLines`, the second from `secondStart`. */
export function splitSpans(
  doc: SpanDocument,
  cue: ScannedCue,
  firstEnd: number,
  secondStart: number,
  firstLines: readonly string[],
  secondLines: readonly string[],
): TextEdit[] {
  const first = blockWith(doc, cue, { end: firstEnd, lines: firstLines });
  // A TTML paragraph's xml:id must stay unique, so the second half gets its own.
  const second = blockWith(doc, cue, { start: secondStart, lines: secondLines }).replace(
    /(\sxml:id\s*=\s*(["']))(.*?)\2/,
    (_, head: string, quote: string, id: string) => `${head}${id}-2${quote}`,
  );
  return [{ ...spansOf(cue).block, text: first + separator(doc, cue) + second }];
}

/** The cue joined with the next: its block rewritten to end at `endMs` with `lines`, the next one removed. */
export function mergeSpans(
  doc: SpanDocument,
  cue: ScannedCue,
  next: ScannedCue,
  endMs: number,
  lines: readonly string[],
): TextEdit[] {
  return [{ ...spansOf(cue).block, text: blockWith(doc, cue, { end: endMs, lines }) }, removeSpans(doc, next)];
}

/** Removes the cue's block with the whitespace before it, so its neighbours close up as they were spaced. */
export function removeSpans(doc: SpanDocument, cue: ScannedCue): TextEdit {
  const block = spansOf(cue).block;
  const before = whitespaceBefore(doc, cue);
  if (before) return { start: before.start, end: block.end, text: '' };
  let end = block.end;
  while (end < doc.source.length && /\s/.test(doc.source[end])) end++;
  return { start: block.start, end, text: '' };
}

/**
 * Every cue's times and text written again from what was read: the source itself when the reader and the
 * writers agree, which is what a byte-for-byte round trip means for a file nothing edited.
 */
export function rewriteEveryCue(doc: SpanDocument, cues: readonly ScannedCue[]): string {
  const edits: TextEdit[] = [];
  for (const cue of cues) {
    const spans = spansOf(cue);
    const [start, end] = [cue.start * 1000, cue.end * 1000];
    edits.push({ ...spans.start, text: writeStamp(doc, start, slice(doc, spans.start)) });
    edits.push({ ...spans.end, text: writeStamp(doc, spans.endIsDuration ? end - start : end, slice(doc, spans.end)) });
    edits.push({ ...spans.text, text: cue.lines.join(spans.lineBreak) });
  }
  let text = doc.source;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}
