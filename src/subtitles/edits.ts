/**
 * Quick fixes for subtitle files as text edits: rebalance a cue's lines, split a cue, merge it with the
 * next, extend it into the following gap, pull back an overlap, shift the timing. Each fix touches only the
 * lines it changes, so line ends, a byte-order mark, WebVTT cue settings and NOTE blocks stay as they were;
 * in ASS/SSA, TTML and SBV only the times and text it changes (span-edits.ts).
 */
import { displayText } from './check';
import { scanSubtitles, type ScannedCue, type SubtitleFormat, type TimeBase } from './scan';
import { mergeSpans, replaceTextSpan, retimeSpans, splitSpans } from './span-edits';
import type { SubtitleStyle } from '../contract/subtitle-style';

export type { TextEdit } from './span-edits';
import type { TextEdit } from './span-edits';

/** An edit that cannot be made: a shift before 0:00, a cue that is not there. */
export class SubtitleEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubtitleEditError';
  }
}

interface Line {
  /** Offset of the line's first character (after a byte-order mark on line 1). */
  start: number;
  /** Offset of the line's end, before its line break. */
  end: number;
  text: string;
}

/** A scanned file with what the edits need: line offsets, the line break in use, cue times in ms. */
interface Document {
  source: string;
  format: SubtitleFormat;
  lines: Line[];
  eol: string;
  cues: ScannedCue[];
  timeBase?: TimeBase;
}

function read(source: string, format: SubtitleFormat): Document {
  const lines: Line[] = [];
  const breaks = /\r\n|\r|\n/g;
  let start = source.startsWith('\uFEFF') ? 1 : 0;
  for (let match = breaks.exec(source); ; match = breaks.exec(source)) {
    const end = match ? match.index : source.length;
    lines.push({ start, end, text: source.slice(start, end) });
    if (!match) break;
    start = match.index + match[0].length;
  }
  const eol = /\r\n|\r|\n/.exec(source)?.[0] ?? '\n';
  const { cues, timeBase } = scanSubtitles(source, format);
  return { source, format, lines, eol, cues, timeBase };
}

const ms = (seconds: number): number => Math.round(seconds * 1000);

function cueOf(doc: Document, index: number): ScannedCue {
  const cue = doc.cues[index - 1];
  if (!cue) throw new SubtitleEditError(`there is no cue ${index}`);
  return cue;
}

/** The cue (its position from 1) whose block holds `line` (from 1): its identifier, timing or text. */
export function cueAtLine(source: string, format: SubtitleFormat, line: number): number | undefined {
  const doc = read(source, format);
  let found: number | undefined;
  for (const cue of doc.cues) {
    const first = identifierLine(doc, cue) ? cue.line - 1 : cue.line;
    if (first <= line) found = cue.index;
  }
  return found;
}

// ---- timestamps --------------------------------------------------------------------------------------

const STAMP = /(?:(\d{1,3}):)?(\d{1,2}):(\d{2})(?:([.,:])(\d{1,3}))?/g;

/** Writes `totalMs` the way `like` was written: hours if it had them (or are needed), its decimal mark. */
function formatStamp(totalMs: number, like: RegExpExecArray, format: SubtitleFormat): string {
  const hours = Math.floor(totalMs / 3_600_000);
  const minutes = Math.floor(totalMs / 60_000) % 60;
  const secs = Math.floor(totalMs / 1000) % 60;
  const millis = totalMs % 1000;
  const mark = like[4] ?? (format === 'srt' ? ',' : '.');
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  const head =
    like[1] !== undefined || hours > 0 || format === 'srt' ? `${pad(hours, Math.max(2, like[1]?.length ?? 2))}:` : '';
  return `${head}${pad(minutes, 2)}:${pad(secs, 2)}${mark}${pad(millis, 3)}`;
}

/** The timing line of a cue with a new start and/or end; the cue settings after it are kept. */
function retimed(doc: Document, cue: ScannedCue, times: { start?: number; end?: number }): string {
  const line = doc.lines[cue.line - 1].text;
  const arrow = line.indexOf('-->');
  const stamps = [...line.matchAll(STAMP)];
  const first = stamps.find((s) => (s.index ?? 0) < arrow);
  const second = stamps.find((s) => (s.index ?? 0) > arrow);
  if (!first || !second) return line;
  const swap = (text: string, stamp: RegExpMatchArray, value: number | undefined): string =>
    value === undefined
      ? text
      : text.slice(0, stamp.index) +
        formatStamp(value, stamp as RegExpExecArray, doc.format) +
        text.slice((stamp.index ?? 0) + stamp[0].length);
  return swap(swap(line, second, times.end), first, times.start);
}

function retime(doc: Document, cue: ScannedCue, times: { start?: number; end?: number }): TextEdit[] {
  if (cue.spans) return retimeSpans(doc, cue, times);
  const line = doc.lines[cue.line - 1];
  const text = retimed(doc, cue, times);
  return text === line.text ? [] : [{ start: line.start, end: line.end, text }];
}

// ---- layout ------------------------------------------------------------------------------------------

const wordsOf = (cue: ScannedCue): string[] => cue.lines.join(' ').split(/\s+/).filter(Boolean);
const shownLength = (words: readonly string[]): number => Array.from(displayText(words.join(' '))).length;

/**
 * The words in as few lines as fit `maxLineChars` (at most `maxLines`, or `maxLines` lines when they do not
 * fit), the break placed so the longest line is as short as it can be.
 */
export function layoutLines(words: readonly string[], maxLineChars: number, maxLines: number): string[] {
  if (words.length === 0) return [];
  for (let count = 1; count <= Math.min(maxLines, words.length); count++) {
    const lines = balanced(words, count);
    if (count === Math.min(maxLines, words.length) || lines.every((line) => shownLength([line]) <= maxLineChars))
      return lines;
  }
  return [words.join(' ')];
}

/** `words` in `count` lines with the shortest longest line; ties go to the break after punctuation. */
function balanced(words: readonly string[], count: number): string[] {
  const n = words.length;
  // best[k][i]: the least longest line for the first i words in k lines, and where its last line starts.
  const best: { cost: number; from: number }[][] = Array.from({ length: count + 1 }, () =>
    Array.from({ length: n + 1 }, () => ({ cost: Infinity, from: 0 })),
  );
  best[0][0] = { cost: 0, from: 0 };
  for (let k = 1; k <= count; k++) {
    for (let i = k; i <= n; i++) {
      for (let j = k - 1; j < i; j++) {
        if (best[k - 1][j].cost === Infinity) continue;
        const punctuation = j > 0 && /[.,;:?!]$/.test(words[j - 1]) ? 0.5 : 0;
        const cost = Math.max(best[k - 1][j].cost, shownLength(words.slice(j, i))) - (k > 1 ? punctuation : 0) / 100;
        if (cost < best[k][i].cost) best[k][i] = { cost, from: j };
      }
    }
  }
  const lines: string[] = [];
  for (let k = count, i = n; k > 0; k--) {
    const from = best[k][i].from;
    lines.unshift(words.slice(from, i).join(' '));
    i = from;
  }
  return lines;
}

function replaceText(doc: Document, cue: ScannedCue, lines: readonly string[]): TextEdit[] {
  if (cue.lines.length === 0) return [];
  if (cue.spans) return replaceTextSpan(doc, cue, lines);
  const first = doc.lines[cue.lineNumbers[0] - 1];
  const last = doc.lines[cue.lineNumbers[cue.lineNumbers.length - 1] - 1];
  const text = lines.join(doc.eol);
  return text === doc.source.slice(first.start, last.end) ? [] : [{ start: first.start, end: last.end, text }];
}

/** Dialogue cues ("- Hi." / "- Hello.") keep one speaker a line; rebalancing would mix them. */
const isDialogue = (cue: ScannedCue): boolean =>
  cue.lines.length > 1 && cue.lines.every((line) => /^\s*-/.test(displayText(line)));

/**
 * Rebreaks the cue's lines within the style's line length, or nothing when they cannot be made to fit
 * (split the cue instead) or already are as good.
 */
export function rebalanceCue(source: string, format: SubtitleFormat, style: SubtitleStyle, index: number): TextEdit[] {
  const doc = read(source, format);
  const cue = cueOf(doc, index);
  if (isDialogue(cue)) return [];
  const lines = layoutLines(wordsOf(cue), style.maxLineChars, style.maxLines);
  if (lines.some((line) => shownLength([line]) > style.maxLineChars)) return [];
  return replaceText(doc, cue, lines);
}

// ---- split and merge ---------------------------------------------------------------------------------

/** The cue identifier's line (a number in SRT), when there is one. */
function identifierLine(doc: Document, cue: ScannedCue): Line | undefined {
  if (cue.spans) return undefined;
  const at = cue.line - 2;
  if (at < 0 || (doc.format === 'vtt' && at === 0)) return undefined;
  const line = doc.lines[at];
  return line.text.trim() === '' ? undefined : line;
}

/** Adds `delta` to the numeric identifiers of the cues after `after`, keeping SRT numbering in step. */
function renumber(doc: Document, after: number, delta: number): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const cue of doc.cues.slice(after)) {
    const line = identifierLine(doc, cue);
    const number = line && /^\s*(\d+)\s*$/.exec(line.text);
    if (line && number)
      edits.push({
        start: line.start,
        end: line.end,
        text: line.text.replace(number[1], String(Number(number[1]) + delta)),
      });
  }
  return edits;
}

/**
 * Splits the cue in two at the word boundary nearest its middle (sentence ends and commas preferred), the
 * time divided in proportion to the characters on each side with the style's minimum gap between them.
 */
export function splitCue(source: string, format: SubtitleFormat, style: SubtitleStyle, index: number): TextEdit[] {
  const doc = read(source, format);
  const cue = cueOf(doc, index);
  const words = wordsOf(cue);
  if (words.length < 2) return [];
  const total = shownLength(words);
  let at = 1;
  let bestScore = Infinity;
  for (let k = 1; k < words.length; k++) {
    const left = shownLength(words.slice(0, k));
    const bonus = /[.?!]["'’”)\]]*$/.test(words[k - 1]) ? 0.15 : /[,;:]$/.test(words[k - 1]) ? 0.08 : 0;
    const score = Math.abs(left - shownLength(words.slice(k))) / total - bonus;
    if (score < bestScore) [bestScore, at] = [score, k];
  }
  const [start, end] = [ms(cue.start), ms(cue.end)];
  const left = shownLength(words.slice(0, at));
  const right = shownLength(words.slice(at));
  return splitInTwo(doc, cue, style, at, start + Math.round(((end - start) * left) / (left + right)));
}

/**
 * Splits the cue in two at `seconds` (the playhead): the first ends there, the second starts the style's
 * minimum gap later, and the words are divided where the share of characters best matches the share of time.
 * Throws when the time is not inside the cue or the cue has fewer than two words.
 */
export function splitCueAt(
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  index: number,
  seconds: number,
): TextEdit[] {
  const doc = read(source, format);
  const cue = cueOf(doc, index);
  const [start, end, at] = [ms(cue.start), ms(cue.end), ms(seconds)];
  if (!(at > start && at < end))
    throw new SubtitleEditError(`${seconds.toFixed(3)} s is not inside cue ${index} (${cue.start}–${cue.end} s)`);
  const words = wordsOf(cue);
  if (words.length < 2) throw new SubtitleEditError(`cue ${index} has fewer than two words to divide`);
  const share = (at - start) / (end - start);
  const total = shownLength(words);
  let cut = 1;
  for (let k = 1; k < words.length; k++) {
    if (
      Math.abs(shownLength(words.slice(0, k)) / total - share) <
      Math.abs(shownLength(words.slice(0, cut)) / total - share)
    )
      cut = k;
  }
  return splitInTwo(doc, cue, style, cut, at, at);
}

/**
 * The cue as two cues, words `[0, at)` in the first: around `middle` (ms) with the style's minimum gap, or
 * with the first ending at `firstEndAt` exactly when given.
 */
function splitInTwo(
  doc: Document,
  cue: ScannedCue,
  style: SubtitleStyle,
  at: number,
  middle: number,
  firstEndAt?: number,
): TextEdit[] {
  const words = wordsOf(cue);
  const [start, end] = [ms(cue.start), ms(cue.end)];
  const gap = Math.min(ms(style.minGapSeconds), Math.max(0, end - start - 2));
  const firstEnd = firstEndAt ?? Math.max(start + 1, middle - Math.floor(gap / 2));
  const secondStart = Math.min(end - 1, firstEnd + gap);
  const index = cue.index;
  if (cue.spans) {
    const firstLines = layoutLines(words.slice(0, at), style.maxLineChars, style.maxLines);
    return splitSpans(
      doc,
      cue,
      firstEnd,
      secondStart,
      firstLines,
      layoutLines(words.slice(at), style.maxLineChars, style.maxLines),
    );
  }
  const id = identifierLine(doc, cue);
  const number = id && /^\s*(\d+)\s*$/.exec(id.text);
  const nl = doc.eol;
  const block = [
    retimed(doc, cue, { end: firstEnd }),
    ...layoutLines(words.slice(0, at), style.maxLineChars, style.maxLines),
    '',
    ...(number ? [String(Number(number[1]) + 1)] : []),
    retimed(doc, cue, { start: secondStart }),
    ...layoutLines(words.slice(at), style.maxLineChars, style.maxLines),
  ].join(nl);
  const timing = doc.lines[cue.line - 1];
  const last = doc.lines[(cue.lineNumbers.at(-1) ?? cue.line) - 1];
  return [{ start: timing.start, end: last.end, text: block }, ...(number ? renumber(doc, index, 1) : [])];
}

/** Joins the cue with the next one: from this start to the next end, their words rebalanced together. */
export function mergeWithNext(source: string, format: SubtitleFormat, style: SubtitleStyle, index: number): TextEdit[] {
  const doc = read(source, format);
  const cue = cueOf(doc, index);
  const next = cueOf(doc, index + 1);
  const words = [...wordsOf(cue), ...wordsOf(next)];
  const lines =
    isDialogue(cue) || isDialogue(next)
      ? [...cue.lines, ...next.lines]
      : layoutLines(words, style.maxLineChars, Math.max(style.maxLines, 1));
  if (cue.spans) return mergeSpans(doc, cue, next, Math.max(ms(cue.end), ms(next.end)), lines);
  const timing = doc.lines[cue.line - 1];
  const last = doc.lines[(cue.lineNumbers.at(-1) ?? cue.line) - 1];
  const body = [retimed(doc, cue, { end: Math.max(ms(cue.end), ms(next.end)) }), ...lines].join(doc.eol);
  // The next cue goes with the blank lines after it; the last cue of a file goes with the blank lines before it.
  const nextFirst = identifierLine(doc, next) ?? doc.lines[next.line - 1];
  const nextLast = (next.lineNumbers.at(-1) ?? next.line) - 1;
  const after = doc.lines.slice(nextLast + 1).find((line) => line.text.trim() !== '');
  const before = doc.lines.slice(0, doc.lines.indexOf(nextFirst)).findLast((line) => line.text.trim() !== '');
  const removal = after
    ? { start: nextFirst.start, end: after.start }
    : { start: before?.end ?? nextFirst.start, end: doc.lines[nextLast].end };
  const identified = identifierLine(doc, next);
  const numbered = identified && /^\s*\d+\s*$/.test(identified.text);
  return [
    { start: timing.start, end: last.end, text: body },
    { ...removal, text: '' },
    ...(numbered ? renumber(doc, index + 1, -1) : []),
  ];
}

// ---- timing ------------------------------------------------------------------------------------------

/**
 * Lengthens a too-short cue to the style's minimum duration, as far as the gap to the next cue allows
 * (keeping the minimum gap); nothing when there is no room.
 */
export function extendIntoGap(source: string, format: SubtitleFormat, style: SubtitleStyle, index: number): TextEdit[] {
  const doc = read(source, format);
  const cue = cueOf(doc, index);
  const next = doc.cues[index];
  let end = ms(cue.start) + ms(style.minDurationSeconds);
  if (next) end = Math.min(end, ms(next.start) - ms(style.minGapSeconds));
  return end > ms(cue.end) ? retime(doc, cue, { end }) : [];
}

/**
 * Ends the cue before `index` the style's minimum gap before cue `index` starts, removing an overlap (or a
 * gap too small); nothing when that would leave the earlier cue no time.
 */
export function pullBackOverlap(
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  index: number,
): TextEdit[] {
  const doc = read(source, format);
  const cue = cueOf(doc, index);
  const previous = cueOf(doc, index - 1);
  const end = ms(cue.start) - ms(style.minGapSeconds);
  return end > ms(previous.start) && end < ms(previous.end) ? retime(doc, previous, { end }) : [];
}

/** Moves every cue from cue `from` on (all by default) by `offsetSeconds`; throws if one would start before 0. */
export function shiftTiming(source: string, format: SubtitleFormat, offsetSeconds: number, from = 1): TextEdit[] {
  if (!Number.isFinite(offsetSeconds)) throw new SubtitleEditError('the offset must be a number of seconds');
  const doc = read(source, format);
  const offset = ms(offsetSeconds);
  const moved = doc.cues.slice(Math.max(from, 1) - 1);
  const early = moved.find((cue) => ms(cue.start) + offset < 0);
  if (early) throw new SubtitleEditError(`cue ${early.index} would start before 0:00 (it starts at ${early.start} s)`);
  return moved.flatMap((cue) => retime(doc, cue, { start: ms(cue.start) + offset, end: ms(cue.end) + offset }));
}

/** New times (ms) for some cues (by position from 1), as edits of their timing lines only. */
export function retimeCues(
  source: string,
  format: SubtitleFormat,
  times: ReadonlyMap<number, { start?: number; end?: number }>,
): TextEdit[] {
  const doc = read(source, format);
  return [...times].flatMap(([index, time]) => retime(doc, cueOf(doc, index), time));
}

/**
 * Replaces the text lines of cue `index` (from 1) with `lines`, written with the file's line break; no
 * lines is no edit (a cue without text would end its block, and the next cue's text would join it).
 */
export function replaceCueLines(
  source: string,
  format: SubtitleFormat,
  index: number,
  lines: readonly string[],
): TextEdit[] {
  if (lines.length === 0) return [];
  const doc = read(source, format);
  const cue = cueOf(doc, index);
  if (cue.lines.length > 0) return replaceText(doc, cue, lines);
  if (cue.spans) {
    const lead = doc.format === 'sbv' ? doc.eol : '';
    return [{ start: cue.spans.text.start, end: cue.spans.text.end, text: lead + lines.join(cue.spans.lineBreak) }];
  }
  const timing = doc.lines[cue.line - 1];
  return [{ start: timing.end, end: timing.end, text: doc.eol + lines.join(doc.eol) }];
}

// ---- applying ----------------------------------------------------------------------------------------

/** The source with the (non-overlapping) edits made. */
export function applyEdits(source: string, edits: readonly TextEdit[]): string {
  let text = source;
  for (const edit of [...edits].sort((a, b) => b.start - a.start || b.end - a.end))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

export type QuickFix = 'rebalance' | 'split' | 'merge' | 'extend' | 'pull-back';

const FIXES: Record<
  QuickFix,
  (source: string, format: SubtitleFormat, style: SubtitleStyle, index: number) => TextEdit[]
> = {
  rebalance: rebalanceCue,
  split: splitCue,
  merge: mergeWithNext,
  extend: extendIntoGap,
  'pull-back': pullBackOverlap,
};

export function quickFix(
  fix: QuickFix,
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  index: number,
): TextEdit[] {
  return FIXES[fix](source, format, style, index);
}
