import type { SubtitleStyle } from '../contract/subtitle-style';
import { joinPieces, layoutLines, type TextPiece } from './line-layout';
import type { TranscriptSegment } from './types';
import { characterCount, estimateWordTimes, shareSpan, type TimedText } from './word-timing';

/** Reading limits of subtitle cues; the defaults are the common broadcast ones. */
export interface CueLimits {
  maxLineChars: number;
  maxLines: number;
  minSeconds: number;
  maxSeconds: number;
  /** A cue stays up until it can be read at this many characters a second, where the next cue leaves room. */
  maxCharsPerSecond?: number;
  /** A cue ends at least this long before the next one starts. */
  minGapSeconds?: number;
}

export const DEFAULT_CUE_LIMITS: CueLimits = { maxLineChars: 42, maxLines: 2, minSeconds: 1, maxSeconds: 7 };

/** The cue limits of a subtitle style (src/subtitles/style.ts). */
export function cueLimitsOf(style: SubtitleStyle): CueLimits {
  return {
    maxLineChars: style.maxLineChars,
    maxLines: style.maxLines,
    minSeconds: style.minDurationSeconds,
    maxSeconds: style.maxDurationSeconds,
    maxCharsPerSecond: style.maxCharsPerSecond,
    minGapSeconds: style.minGapSeconds,
  };
}

/** Cues, and the cues (0-based) that hold a word longer than a line: the one limit words can force past. */
export interface CueLayout {
  cues: Cue[];
  longWordCues: number[];
}

/** One subtitle cue: never empty, never overlapping the next, times in seconds (millisecond precision). */
export interface Cue {
  start: number;
  end: number;
  lines: string[];
  speaker?: string;
}

export type CueSource = Pick<TranscriptSegment, 'start' | 'end' | 'text' | 'speaker'> & {
  words?: readonly TimedText[];
};

interface TimedPiece extends TextPiece {
  startMs: number;
  endMs: number;
}

interface DraftCue {
  startMs: number;
  endMs: number;
  lines: string[];
  speaker?: string;
  /** Holds a word longer than a line, which stands alone on a longer line. */
  longWord?: boolean;
}

/**
 * Splits transcript segments into readable subtitle cues: each cue holds the words of one segment that fit
 * in `maxLines` lines of `maxLineChars` and `maxSeconds`; a segment is split at word boundaries (by its
 * word timestamps, or in proportion to characters when it has none). Cues never span two segments, so
 * never two speakers. Then the times are made safe: a cue never overlaps the next (and leaves it
 * `minGapSeconds`), a short one is lengthened toward `minSeconds` and toward the time it takes to read at
 * `maxCharsPerSecond` where the next leaves room, and none is empty. A word longer than a line stays whole
 * (text without spaces is cut into line-long slices instead).
 */
export function buildCues(segments: readonly CueSource[], limits: CueLimits = DEFAULT_CUE_LIMITS): Cue[] {
  return layoutCues(segments, limits).cues;
}

/** buildCues, also saying which cues hold a word longer than a line. */
export function layoutCues(segments: readonly CueSource[], limits: CueLimits = DEFAULT_CUE_LIMITS): CueLayout {
  checkLimits(limits);
  const ordered = [...segments].sort((a, b) => a.start - b.start);
  const drafts = ordered.flatMap((segment) => packSegment(segment, limits));
  const settled = settleTimes(drafts, limits);
  return {
    cues: settled.map(({ startMs, endMs, lines, speaker }) => ({
      start: startMs / 1000,
      end: endMs / 1000,
      lines,
      ...(speaker === undefined ? {} : { speaker }),
    })),
    longWordCues: settled.flatMap((draft, i) => (draft.longWord ? [i] : [])),
  };
}

function packSegment(segment: CueSource, limits: CueLimits): DraftCue[] {
  const pieces = piecesOf(segment, limits.maxLineChars);
  const drafts: DraftCue[] = [];
  let current: TimedPiece[] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    const lines = layoutLines(current, limits.maxLineChars, limits.maxLines);
    // Only a word longer than a line does not fit; it is then alone in its cue (the loop below sees to that).
    drafts.push({
      startMs: current[0].startMs,
      endMs: current[current.length - 1].endMs,
      lines: lines ?? [joinPieces(current)],
      ...(segment.speaker === undefined ? {} : { speaker: segment.speaker }),
      ...(lines === null ? { longWord: true } : {}),
    });
    current = [];
  };
  for (const piece of pieces) {
    const candidate = [...current, piece];
    const tooLong = piece.endMs - (current[0]?.startMs ?? piece.startMs) > limits.maxSeconds * 1000;
    if (current.length > 0 && (tooLong || !layoutLines(candidate, limits.maxLineChars, limits.maxLines))) flush();
    current.push(piece);
  }
  flush();
  return drafts;
}

/**
 * The segment's words with times. Text without spaces longer than a line is cut into glued line-long
 * slices; a longer word of a script with spaces (a URL, a compound) stays whole.
 */
function piecesOf(segment: CueSource, maxLineChars: number): TimedPiece[] {
  const words = (segment.words ?? []).filter((word) => word.text.trim().length > 0);
  const timed = words.length > 0 ? words : estimateWordTimes(segment.text, segment.start, segment.end);
  return timed.flatMap((word) => {
    const text = word.text.trim();
    const start = Math.max(word.start, segment.start);
    const end = Math.max(start, Math.min(word.end, segment.end));
    const slices = UNSPACED_SCRIPT.test(text) ? sliceCharacters(text, maxLineChars) : [text];
    return shareSpan(slices, start, end).map((slice, i) => ({
      text: slice.text,
      glued: i > 0,
      startMs: Math.round(slice.start * 1000),
      endMs: Math.round(slice.end * 1000),
    }));
  });
}

// Scripts written without spaces, whose text may be broken between any two characters.
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;

function sliceCharacters(text: string, size: number): string[] {
  if (characterCount(text) <= size) return [text];
  const characters = Array.from(text);
  const slices: string[] = [];
  for (let i = 0; i < characters.length; i += size) slices.push(characters.slice(i, i + size).join(''));
  return slices;
}

/**
 * Makes times safe in one pass, in integer milliseconds: start no earlier than the previous end; end capped
 * at maxSeconds and at the next cue's start less the minimum gap; short cues lengthened toward minSeconds
 * and toward their reading time where there is room; a cue squeezed to nothing keeps 1 ms (the next one
 * then starts 1 ms later).
 */
function settleTimes(drafts: readonly DraftCue[], limits: CueLimits): DraftCue[] {
  const minMs = Math.round(limits.minSeconds * 1000);
  const maxMs = Math.round(limits.maxSeconds * 1000);
  const gapMs = Math.round((limits.minGapSeconds ?? 0) * 1000);
  const settled: DraftCue[] = [];
  let previousEnd = -Infinity;
  drafts.forEach((draft, i) => {
    const startMs = Math.max(draft.startMs, previousEnd);
    const nextStart = i + 1 < drafts.length ? Math.max(drafts[i + 1].startMs, startMs) - gapMs : Infinity;
    const readingMs = limits.maxCharsPerSecond
      ? Math.ceil((characterCount(draft.lines.join('')) / limits.maxCharsPerSecond) * 1000)
      : 0;
    let endMs = Math.min(Math.max(draft.endMs, startMs), startMs + maxMs, nextStart);
    const wantedMs = Math.min(Math.max(minMs, readingMs), maxMs);
    if (endMs - startMs < wantedMs) endMs = Math.max(endMs, Math.min(startMs + wantedMs, nextStart));
    if (endMs <= startMs) endMs = startMs + 1;
    settled.push({ ...draft, startMs, endMs });
    previousEnd = endMs;
  });
  return settled;
}

function checkLimits(limits: CueLimits): void {
  const { maxLineChars, maxLines, minSeconds, maxSeconds } = limits;
  if (!Number.isInteger(maxLineChars) || maxLineChars < 1)
    throw new TypeError(`Expected maxLineChars >= 1, got ${maxLineChars}`);
  if (!Number.isInteger(maxLines) || maxLines < 1) throw new TypeError(`Expected maxLines >= 1, got ${maxLines}`);
  if (!(minSeconds >= 0)) throw new TypeError(`Expected minSeconds >= 0, got ${minSeconds}`);
  if (!(maxSeconds > 0) || maxSeconds < minSeconds) {
    throw new TypeError(`Expected maxSeconds > 0 and >= minSeconds, got ${maxSeconds}`);
  }
  if (limits.maxCharsPerSecond !== undefined && !(limits.maxCharsPerSecond > 0)) {
    throw new TypeError(`Expected maxCharsPerSecond > 0, got ${limits.maxCharsPerSecond}`);
  }
  if (limits.minGapSeconds !== undefined && !(limits.minGapSeconds >= 0)) {
    throw new TypeError(`Expected minGapSeconds >= 0, got ${limits.minGapSeconds}`);
  }
}
