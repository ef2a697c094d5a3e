/**
 * Snapping subtitle timing to speech: each cue's start moves to the nearest speech onset and its end to
 * the nearest speech offset within a window, as text edits of the timing lines only (so CRLF, a BOM,
 * WebVTT cue settings and NOTE blocks survive), with a report of how much moved.
 */
import { displayText } from './check';
import { retimeCues, type TextEdit } from './edits';
import { scanSubtitles, type ScannedCue, type SubtitleFormat } from './scan';
import type { SubtitleStyle } from '../contract/subtitle-style';

/** A stretch of speech in seconds. */
export interface SpeechSpan {
  start: number;
  end: number;
}

export const DEFAULT_SNAP_WINDOW_SECONDS = 0.5;

export interface SnapReport {
  /** Cues with at least one boundary moved. */
  moved: number;
  /** All cues of the file. */
  total: number;
  /** Of the boundaries that moved, in ms. */
  meanShiftMs: number;
  maxShiftMs: number;
  /** Moves left out because they would have created a problem (an overlap, a gap, a cue too short or read too fast). */
  heldBack: number;
}

export interface SnapResult {
  edits: TextEdit[];
  report: SnapReport;
}

const ms = (seconds: number): number => Math.round(seconds * 1000);

/** The value of `sorted` nearest to `target` within `window` (all ms), if any; ties go to the earlier one. */
function nearest(sorted: readonly number[], target: number, window: number): number | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < target) low = middle + 1;
    else high = middle;
  }
  const candidates = [sorted[low - 1], sorted[low]].filter(
    (value): value is number => value !== undefined && Math.abs(value - target) <= window,
  );
  return candidates.sort((a, b) => Math.abs(a - target) - Math.abs(b - target))[0];
}

interface Timed {
  index: number;
  start: number;
  end: number;
  characters: number;
}

/** Characters per second as the check shows it (one decimal), so a snap never makes a cue the check calls too fast. */
const readingSpeed = (characters: number, durationMs: number): number =>
  Math.round((characters / (durationMs / 1000)) * 10) / 10;

/**
 * Moves each cue's start to the nearest speech onset and its end to the nearest offset, each within
 * `windowSeconds` of where it is. A move is left out when it would make the cue overlap a neighbour, come
 * closer to one than the style's minimum gap (or the gap it had, if smaller), or last less than the style's
 * minimum duration (or its own duration, if already shorter), or read faster than the style's characters per
 * second (when it did not already). Cues that cannot be read are left alone.
 * @example snapToSpeech(srt, 'srt', [{ start: 0.32, end: 2.1 }], style).report // { moved: 1, total: 1, … }
 */
export function snapToSpeech(
  source: string,
  format: SubtitleFormat,
  speech: readonly SpeechSpan[],
  style: SubtitleStyle,
  windowSeconds = DEFAULT_SNAP_WINDOW_SECONDS,
): SnapResult {
  if (!(windowSeconds >= 0 && Number.isFinite(windowSeconds)))
    throw new TypeError(`Expected a window of 0 seconds or more, got ${windowSeconds}`);
  const window = ms(windowSeconds);
  const onsets = speech.map((span) => ms(span.start)).sort((a, b) => a - b);
  const offsets = speech.map((span) => ms(span.end)).sort((a, b) => a - b);
  const scanned = scanSubtitles(source, format).cues;
  const cues: Timed[] = scanned
    .filter((cue: ScannedCue) => cue.end > cue.start)
    .map((cue) => ({
      index: cue.index,
      start: ms(cue.start),
      end: ms(cue.end),
      characters: cue.lines.map((line) => Array.from(displayText(line)).length).reduce((a, b) => a + b, 0),
    }))
    .sort((a, b) => a.start - b.start || a.index - b.index);
  const minGap = ms(style.minGapSeconds);
  const minDuration = ms(style.minDurationSeconds);
  /** The gap a neighbour pair must keep: the style's, or the smaller one it already had (never below 0). */
  const gapBetween = (before: Timed, after: Timed): number => Math.min(minGap, Math.max(0, after.start - before.end));

  const times = new Map<number, { start?: number; end?: number }>();
  const shifts: number[] = [];
  let heldBack = 0;
  let previousEnd: number | undefined;
  cues.forEach((cue, i) => {
    const before = cues[i - 1];
    const after = cues[i + 1];
    const startTo = nearest(onsets, cue.start, window) ?? cue.start;
    const endTo = nearest(offsets, cue.end, window) ?? cue.end;
    const lowest = before && previousEnd !== undefined ? previousEnd + gapBetween(before, cue) : -Infinity;
    // The next cue's start may stay or move to its own onset: the end keeps clear of both.
    const nextStart = after ? Math.min(after.start, nearest(onsets, after.start, window) ?? after.start) : Infinity;
    const highest = after ? nextStart - gapBetween(cue, after) : Infinity;
    const shortest = Math.min(minDuration, cue.end - cue.start);
    const fastest = Math.max(style.maxCharsPerSecond, readingSpeed(cue.characters, cue.end - cue.start));
    const fits = (start: number, end: number): boolean =>
      start >= 0 &&
      end > start &&
      end - start >= shortest &&
      (start === cue.start || start >= lowest) &&
      (end === cue.end || end <= highest) &&
      readingSpeed(cue.characters, end - start) <= fastest;
    const choice = [
      [startTo, endTo],
      [startTo, cue.end],
      [cue.start, endTo],
    ].find(([start, end]) => fits(start, end)) ?? [cue.start, cue.end];
    const wanted = startTo !== cue.start || endTo !== cue.end;
    if (wanted && (choice[0] !== startTo || choice[1] !== endTo)) heldBack++;
    const [start, end] = choice;
    if (start !== cue.start || end !== cue.end) {
      times.set(cue.index, { ...(start !== cue.start ? { start } : {}), ...(end !== cue.end ? { end } : {}) });
      if (start !== cue.start) shifts.push(Math.abs(start - cue.start));
      if (end !== cue.end) shifts.push(Math.abs(end - cue.end));
    }
    previousEnd = end;
  });
  const total = shifts.reduce((sum, shift) => sum + shift, 0);
  return {
    edits: retimeCues(source, format, times),
    report: {
      moved: times.size,
      total: scanned.length,
      meanShiftMs: shifts.length === 0 ? 0 : Math.round(total / shifts.length),
      maxShiftMs: shifts.length === 0 ? 0 : Math.max(...shifts),
      heldBack,
    },
  };
}
