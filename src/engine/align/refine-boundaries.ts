/**
 * Better, not different: when a recognizer is installed, the aligned cues' boundaries and word starts are
 * moved to the recognizer's times for the same words, but only where its words agree with the script's
 * and only by a bounded distance. Cue texts, counts and order never change; the recognizer only hears
 * the media in windows of consecutive cues, so its mistakes elsewhere cannot pull anything far.
 */
import type { PlacedUnit, PlacedWord } from './place-units';

/** The farthest a boundary or word start moves to the recognizer's time: the DTW is rarely further off. */
export const REFINE_BOUND_SECONDS = 0.3;
/** A recognizer window holds at most this much media (whisper hears 30 s at a time). */
const WINDOW_SECONDS = 25;
/** Media heard before and after a window's cues, so a word at its edge is heard whole. */
const PAD_SECONDS = 0.5;

/** A word the recognizer heard, in seconds of the media. */
export interface HeardWord {
  text: string;
  start: number;
  end: number;
}

/** Recognizes the media from `start` to `end` (seconds); the words' times are in seconds of the media. */
export type Recognize = (start: number, end: number) => Promise<HeardWord[]>;

export interface Refinement {
  units: PlacedUnit[];
  /** How many cue starts and ends moved to the recognizer's time. */
  movedBoundaries: number;
  /** How many of the script's words (in matched cues) the recognizer agreed with. */
  agreedWords: number;
}

/** A word as compared: lower case, letters and digits only (punctuation and case are not what was said). */
export const wordKey = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * For each script word, the index of the heard word it is paired with where the two agree, else -1: a
 * text alignment (edit distance over words, a pairing only between equal words), so a recognizer's
 * missing, extra or misheard words leave the others paired.
 */
export function pairWords(script: readonly string[], heard: readonly string[]): number[] {
  const n = script.length;
  const m = heard.length;
  const cost = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => i * (m + 1) + j;
  for (let i = 0; i <= n; i++) cost[at(i, 0)] = i;
  for (let j = 0; j <= m; j++) cost[at(0, j)] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = script[i - 1] !== '' && script[i - 1] === heard[j - 1];
      cost[at(i, j)] = Math.min(
        cost[at(i - 1, j)] + 1,
        cost[at(i, j - 1)] + 1,
        cost[at(i - 1, j - 1)] + (same ? 0 : 2),
      );
    }
  }
  const pairs = new Array<number>(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const same = script[i - 1] !== '' && script[i - 1] === heard[j - 1];
    if (same && cost[at(i, j)] === cost[at(i - 1, j - 1)]) {
      pairs[i - 1] = j - 1;
      i--;
      j--;
    } else if (cost[at(i, j)] === cost[at(i - 1, j)] + 1) i--;
    else if (cost[at(i, j)] === cost[at(i, j - 1)] + 1) j--;
    else {
      i--;
      j--;
    }
  }
  return pairs;
}

/** Consecutive matched units, in windows of at most WINDOW_SECONDS (a longer unit is a window alone). */
function windows(units: readonly PlacedUnit[]): number[][] {
  const result: number[][] = [];
  let current: number[] = [];
  units.forEach((unit, i) => {
    if (!unit.matched) return;
    const first = current.length ? units[current[0]] : undefined;
    if (first && unit.end - first.start > WINDOW_SECONDS) {
      result.push(current);
      current = [];
    }
    current.push(i);
  });
  if (current.length) result.push(current);
  return result;
}

const near = (from: number, to: number): boolean => Math.abs(to - from) <= REFINE_BOUND_SECONDS;

/**
 * The units with boundaries and word starts moved where the recognizer agrees (see the file's comment).
 * Every moved time stays within REFINE_BOUND_SECONDS of where the warp put it, cues stay in order and do
 * not overlap, and each word stays inside its cue.
 */
export async function refineBoundaries(
  units: readonly PlacedUnit[],
  duration: number,
  recognize: Recognize,
): Promise<Refinement> {
  const refined: PlacedUnit[] = units.map((unit) => ({ ...unit, words: unit.words.map((word) => ({ ...word })) }));
  let movedBoundaries = 0;
  let agreedWords = 0;
  for (const window of windows(units)) {
    const from = Math.max(0, units[window[0]].start - PAD_SECONDS);
    const to = Math.min(duration, units[window.at(-1)!].end + PAD_SECONDS);
    const heard = (await recognize(from, to)).filter((word) => wordKey(word.text) !== '');
    const scriptWords = window.flatMap((u) =>
      units[u].words.map((word, w) => ({ unit: u, word: w, key: wordKey(word.text) })),
    );
    const pairs = pairWords(
      scriptWords.map((word) => word.key),
      heard.map((word) => wordKey(word.text)),
    );
    const agreed = new Map<PlacedWord, HeardWord>();
    pairs.forEach((j, k) => {
      if (j < 0) return;
      agreed.set(refined[scriptWords[k].unit].words[scriptWords[k].word], heard[j]);
      agreedWords++;
    });
    for (const u of window) {
      const unit = refined[u];
      const words = unit.words;
      const previousEnd = previousMatchedEnd(refined, u);
      const nextStart = nextMatchedStart(units, u, duration);
      const first = words[0] && agreed.get(words[0]);
      if (first && near(unit.start, first.start) && first.start >= previousEnd && first.start < unit.end) {
        unit.start = first.start;
        movedBoundaries++;
      }
      const last = words.at(-1) && agreed.get(words.at(-1)!);
      if (last && near(unit.end, last.end) && last.end <= nextStart && last.end > unit.start) {
        unit.end = last.end;
        movedBoundaries++;
      }
      retimeWords(unit, agreed);
    }
  }
  return { units: refined, movedBoundaries, agreedWords };
}

function previousMatchedEnd(units: readonly PlacedUnit[], u: number): number {
  for (let k = u - 1; k >= 0; k--) if (units[k].matched) return units[k].end;
  return 0;
}

/** The next matched unit's start as the warp placed it (it may only move later, never before this cue's end). */
function nextMatchedStart(units: readonly PlacedUnit[], u: number, duration: number): number {
  for (let k = u + 1; k < units.length; k++) if (units[k].matched) return units[k].start;
  return duration;
}

/** Word starts moved to agreeing heard starts (within the bound), then kept in order and inside the cue. */
function retimeWords(unit: PlacedUnit, agreed: ReadonlyMap<PlacedWord, HeardWord>): void {
  const words = unit.words;
  words.forEach((word, w) => {
    const heard = agreed.get(word);
    if (w > 0 && heard && near(word.start, heard.start)) word.start = heard.start;
  });
  if (words.length) words[0].start = unit.start;
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    word.start = Math.min(unit.end, Math.max(w > 0 ? words[w - 1].start : unit.start, word.start));
  }
  words.forEach((word, w) => {
    word.end = w + 1 < words.length ? words[w + 1].start : unit.end;
  });
}
