import { joinPieces, layoutLines, type TextPiece } from './line-layout';
import type { TranscriptSegment } from './types';
import { characterCount, estimateWordTimes, shareSpan, type TimedText } from './word-timing';

/** Reading limits of subtitle cues; the defaults are the common broadcast ones. */
export interface CueLimits {
  maxLineChars: number;
  maxLines: number;
  minSeconds: number;
  maxSeconds: number;
}

export const DEFAULT_CUE_LIMITS: CueLimits = { maxLineChars: 42, maxLines: 2, minSeconds: 1, maxSeconds: 7 };

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
}

/**
 * Splits transcript segments into readable subtitle cues: each cue holds the words of one segment that fit
 * in `maxLines` lines of `maxLineChars` and `maxSeconds`; a segment is split at word boundaries (by its
 * word timestamps, or in proportion to characters when it has none). Cues never span two segments, so
 * never two speakers. Then the times are made safe: a cue never overlaps the next, a short one is
 * lengthened toward `minSeconds` where the next leaves room, and none is empty.
 */
export function buildCues(segments: readonly CueSource[], limits: CueLimits = DEFAULT_CUE_LIMITS): Cue[] {
  checkLimits(limits);
  const ordered = [...segments].sort((a, b) => a.start - b.start);
  const drafts = ordered.flatMap((segment) => packSegment(segment, limits));
  return settleTimes(drafts, limits).map(({ startMs, endMs, lines, speaker }) => ({
    start: startMs / 1000,
    end: endMs / 1000,
    lines,
    ...(speaker === undefined ? {} : { speaker }),
  }));
}

function packSegment(segment: CueSource, limits: CueLimits): DraftCue[] {
  const pieces = piecesOf(segment, limits.maxLineChars);
  const drafts: DraftCue[] = [];
  let current: TimedPiece[] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    const lines = layoutLines(current, limits.maxLineChars, limits.maxLines);
    // A single piece is at most one line long (piecesOf saw to that), so lines is never null here.
    drafts.push({
      startMs: current[0].startMs,
      endMs: current[current.length - 1].endMs,
      lines: lines ?? [joinPieces(current)],
      ...(segment.speaker === undefined ? {} : { speaker: segment.speaker }),
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

/** The segment's words with times, each no longer than one line (longer words are cut into glued slices). */
function piecesOf(segment: CueSource, maxLineChars: number): TimedPiece[] {
  const words = (segment.words ?? []).filter((word) => word.text.trim().length > 0);
  const timed = words.length > 0 ? words : estimateWordTimes(segment.text, segment.start, segment.end);
  return timed.flatMap((word) => {
    const text = word.text.trim();
    const start = Math.max(word.start, segment.start);
    const end = Math.max(start, Math.min(word.end, segment.end));
    const slices = sliceCharacters(text, maxLineChars);
    return shareSpan(slices, start, end).map((slice, i) => ({
      text: slice.text,
      glued: i > 0,
      startMs: Math.round(slice.start * 1000),
      endMs: Math.round(slice.end * 1000),
    }));
  });
}

function sliceCharacters(text: string, size: number): string[] {
  if (characterCount(text) <= size) return [text];
  const characters = Array.from(text);
  const slices: string[] = [];
  for (let i = 0; i < characters.length; i += size) slices.push(characters.slice(i, i + size).join(''));
  return slices;
}

/**
 * Makes times safe in one pass, in integer milliseconds: start no earlier than the previous end; end capped
 * at maxSeconds and at the next cue's start; short cues lengthened toward minSeconds where there is room;
 * a cue squeezed to nothing keeps 1 ms (the next one then starts 1 ms later).
 */
function settleTimes(drafts: readonly DraftCue[], limits: CueLimits): DraftCue[] {
  const minMs = Math.round(limits.minSeconds * 1000);
  const maxMs = Math.round(limits.maxSeconds * 1000);
  const settled: DraftCue[] = [];
  let previousEnd = -Infinity;
  drafts.forEach((draft, i) => {
    const startMs = Math.max(draft.startMs, previousEnd);
    const nextStart = i + 1 < drafts.length ? Math.max(drafts[i + 1].startMs, startMs) : Infinity;
    let endMs = Math.min(Math.max(draft.endMs, startMs), startMs + maxMs, nextStart);
    if (endMs - startMs < minMs) endMs = Math.max(endMs, Math.min(startMs + minMs, nextStart));
    if (endMs <= startMs) endMs = startMs + 1;
    settled.push({ ...draft, startMs, endMs });
    previousEnd = endMs;
  });
  return settled;
}

function checkLimits(limits: CueLimits): void {
  const { maxLineChars, maxLines, minSeconds, maxSeconds } = limits;
  if (!Number.isInteger(maxLineChars) || maxLineChars < 1) throw new TypeError(`Expected maxLineChars >= 1, got ${maxLineChars}`);
  if (!Number.isInteger(maxLines) || maxLines < 1) throw new TypeError(`Expected maxLines >= 1, got ${maxLines}`);
  if (!(minSeconds >= 0)) throw new TypeError(`Expected minSeconds >= 0, got ${minSeconds}`);
  if (!(maxSeconds > 0) || maxSeconds < minSeconds) {
    throw new TypeError(`Expected maxSeconds > 0 and >= minSeconds, got ${maxSeconds}`);
  }
}
