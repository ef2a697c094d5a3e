/**
 * Re-transcribing cues: which spans of the media to transcribe for the cues a selection touches (one span
 * per run of consecutive cues), and how the recognized words go back to those cues by time, as text edits.
 */
import { layoutLines, replaceCueLines, type TextEdit } from './edits';
import { scanSubtitles, type SubtitleFormat } from './scan';
import type { SubtitleStyle } from '../contract/subtitle-style';

/** A word as the recognizer timed it, in seconds of the original media. */
export interface TimedWord {
  start: number;
  end: number;
  text: string;
}

interface TimedCue {
  index: number;
  start: number;
  end: number;
}

/** A run of consecutive cues (positions from 1, in time order) and the part of the media to transcribe. */
export interface CueSpan {
  cues: number[];
  cropStartSeconds: number;
  cropEndSeconds: number;
}

/** Room taken around a span so a word at its edge is heard whole, without reaching into a cue not asked for. */
export const SPAN_PADDING_SECONDS = 0.25;

function timedCues(source: string, format: SubtitleFormat): TimedCue[] {
  return scanSubtitles(source, format)
    .cues.filter((cue) => cue.end > cue.start)
    .map(({ index, start, end }) => ({ index, start, end }))
    .sort((a, b) => a.start - b.start || a.index - b.index);
}

/** The cues (positions from 1) whose blocks hold any of the lines (from 1) in the ranges, inclusive. */
export function cuesInLines(
  source: string,
  format: SubtitleFormat,
  ranges: ReadonlyArray<{ first: number; last: number }>,
): number[] {
  const { cues } = scanSubtitles(source, format);
  const touched = new Set<number>();
  cues.forEach((cue, i) => {
    // A cue's block runs from its identifier (the line before its timing) to the line before the next block.
    const from = cue.line - 1;
    const to = (cues[i + 1]?.line ?? Infinity) - 2;
    if (ranges.some((range) => range.first <= to && range.last >= from)) touched.add(cue.index);
  });
  return [...touched].sort((a, b) => a - b);
}

/**
 * One span a run of the chosen cues that follow each other in time, padded by SPAN_PADDING_SECONDS but
 * never into the cue before or after that was not chosen, nor before 0:00.
 */
export function spansOf(source: string, format: SubtitleFormat, chosen: readonly number[]): CueSpan[] {
  const cues = timedCues(source, format);
  const wanted = new Set(chosen);
  const spans: CueSpan[] = [];
  let run: TimedCue[] = [];
  const close = (at: number): void => {
    if (run.length === 0) return;
    const before = cues[at - run.length - 1];
    const after = cues[at];
    const first = run[0];
    const last = run[run.length - 1];
    const start = Math.max(0, first.start - SPAN_PADDING_SECONDS, before ? Math.min(before.end, first.start) : 0);
    const end = Math.min(last.end + SPAN_PADDING_SECONDS, after ? Math.max(after.start, last.end) : Infinity);
    spans.push({ cues: run.map((cue) => cue.index), cropStartSeconds: round(start), cropEndSeconds: round(end) });
    run = [];
  };
  cues.forEach((cue, i) => {
    if (wanted.has(cue.index)) run.push(cue);
    else close(i);
  });
  close(cues.length);
  return spans;
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/**
 * Gives each word to the cue it overlaps most, or, in a gap, to the nearest cue; only the cues listed take
 * words. Returns the words of each cue in time order.
 */
export function wordsByCue(cues: ReadonlyArray<TimedCue>, words: readonly TimedWord[]): Map<number, string[]> {
  const byCue = new Map<number, string[]>(cues.map((cue) => [cue.index, []]));
  if (cues.length === 0) return byCue;
  for (const word of [...words].sort((a, b) => a.start - b.start)) {
    const text = word.text.trim();
    if (!text) continue;
    let best = cues[0];
    let bestScore = -Infinity;
    for (const cue of cues) {
      const overlap = Math.min(cue.end, word.end) - Math.max(cue.start, word.start);
      // Overlaps score their length; a word in a gap scores minus its distance to the cue.
      const distance = overlap > 0 ? overlap : -Math.max(cue.start - word.end, word.start - cue.end, 0);
      if (distance > bestScore) [best, bestScore] = [cue, distance];
    }
    byCue.get(best.index)!.push(text);
  }
  return byCue;
}

export interface RetranscribeOutcome {
  edits: TextEdit[];
  /** Cues whose text was replaced. */
  replaced: number[];
  /** Cues the recognizer found no words for: their text stays. */
  empty: number[];
}

/**
 * Edits that replace the text of the cues of `span` with the words recognized in it, laid out in the
 * style's lines. A cue that got no word keeps its text (and is listed in `empty`).
 */
export function replaceCueTexts(
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  span: Pick<CueSpan, 'cues'>,
  words: readonly TimedWord[],
): RetranscribeOutcome {
  const cues = timedCues(source, format).filter((cue) => span.cues.includes(cue.index));
  const byCue = wordsByCue(cues, words);
  const outcome: RetranscribeOutcome = { edits: [], replaced: [], empty: [] };
  for (const cue of cues) {
    const cueWords = byCue.get(cue.index) ?? [];
    if (cueWords.length === 0) {
      outcome.empty.push(cue.index);
      continue;
    }
    outcome.edits.push(
      ...replaceCueLines(source, format, cue.index, layoutLines(cueWords, style.maxLineChars, style.maxLines)),
    );
    outcome.replaced.push(cue.index);
  }
  return outcome;
}
