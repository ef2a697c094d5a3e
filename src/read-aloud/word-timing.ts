/**
 * When each word of a sentence is spoken: the engine's own word times where it reports them (espeak-ng),
 * else an estimate that spreads the sentence's duration over its words by their length.
 */

/** A word of a sentence's text (offsets in that text) and when it starts in the sentence's audio. */
export interface TimedWord {
  start: number;
  end: number;
  startSeconds: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’\-.]*/gu;

export function wordTimes(text: string, audio: { durationSeconds: number; words: TimedWord[] | null }): TimedWord[] {
  if (audio.words && audio.words.length > 0) return audio.words;
  return estimateWordTimes(text, audio.durationSeconds);
}

/**
 * Word starts in proportion to the characters before each word (a word of 8 letters takes about twice as
 * long as one of 4), which is close enough to follow a voice that reports nothing.
 *
 * @example estimateWordTimes('Hi there', 1) // [{ start: 0, end: 2, startSeconds: 0 }, { start: 3, end: 8, startSeconds: 0.333 }]
 */
export function estimateWordTimes(text: string, durationSeconds: number): TimedWord[] {
  const words = [...text.matchAll(WORD)].map((m) => ({
    start: m.index,
    end: m.index + m[0].replace(/[.-]+$/, '').length,
  }));
  const weight = (w: { start: number; end: number }): number => w.end - w.start + 1;
  const total = words.reduce((sum, w) => sum + weight(w), 0);
  let before = 0;
  return words.map((w) => {
    const startSeconds = total === 0 ? 0 : Math.round((durationSeconds * before * 1000) / total) / 1000;
    before += weight(w);
    return { ...w, startSeconds };
  });
}

/** Index of the word being spoken at `seconds`, -1 before the first. */
export function wordAt(words: readonly TimedWord[], seconds: number): number {
  let found = -1;
  for (const [index, word] of words.entries()) {
    if (word.startSeconds > seconds + 1e-6) break;
    found = index;
  }
  return found;
}
