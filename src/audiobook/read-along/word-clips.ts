/**
 * When each word of a read-along sentence is heard, inside the sentence's own audio: from the voice's word
 * events where it reports them (espeak-ng, during the book's own synthesis), otherwise estimated by sharing
 * the sentence's span among its words in proportion to their characters. Whole milliseconds, each word's
 * clip ending where the next begins, strictly in order.
 */
import type { WordAnchor } from './word-anchors';

/** A word as the voice said it (its text may be normalized: "3" said as "three"), and when it starts. */
export interface SpokenWord {
  text: string;
  seconds: number;
}

/** A word's span of its sentence's audio, in seconds from the sentence's start. */
export interface WordClip {
  id: string;
  begin: number;
  end: number;
}

/** Spoken words looked at past the last matched one: a normalized number may say several words. */
const LOOKAHEAD = 8;

const comparable = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]/gu, '');

/** Shares [from, to) among pieces of the given weights: the start of each piece, in whole milliseconds. */
function share(weights: readonly number[], from: number, to: number): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let before = 0;
  return weights.map((weight) => {
    const start = total === 0 ? from : from + Math.round(((to - from) * before) / total);
    before += weight;
    return start;
  });
}

/**
 * The clip of every word of `words` (anchors into `text`), for a sentence audio of `seconds`; `spoken` is
 * null when the voice reported no word times.
 */
export function wordClips(
  text: string,
  words: readonly WordAnchor[],
  spoken: readonly SpokenWord[] | null,
  seconds: number,
): WordClip[] {
  const total = Math.round(seconds * 1000);
  if (words.length === 0) return [];
  // Words touching each other (split by markup: `<em>un</em>done`) are one spoken word.
  const groups: WordAnchor[][] = [];
  for (const word of words) {
    const last = groups[groups.length - 1];
    if (last && last[last.length - 1].end === word.start) last.push(word);
    else groups.push([word]);
  }
  const begins: Array<number | undefined> = groups.map(() => undefined);
  if (spoken) {
    let cursor = 0;
    let previous = -1;
    for (const [index, group] of groups.entries()) {
      const wanted = comparable(text.slice(group[0].start, group[group.length - 1].end));
      for (let at = cursor; at < Math.min(spoken.length, cursor + LOOKAHEAD); at++) {
        const ms = Math.min(total, Math.max(0, Math.round(spoken[at].seconds * 1000)));
        if (comparable(spoken[at].text) !== wanted || ms <= previous) continue;
        begins[index] = ms;
        previous = ms;
        cursor = at + 1;
        break;
      }
    }
  }
  // Words the voice gave no time for share the span between their timed neighbours with the one before them.
  const weight = (group: readonly WordAnchor[]): number =>
    group.reduce((sum, word) => sum + word.end - word.start, 0) + 1;
  for (let first = 0; first < groups.length; first++) {
    if (begins[first] !== undefined) continue;
    let last = first;
    while (last + 1 < groups.length && begins[last + 1] === undefined) last++;
    const from = first > 0 ? first - 1 : first;
    const start = first > 0 ? begins[first - 1]! : 0;
    const stop = last + 1 < groups.length ? begins[last + 1]! : total;
    share(groups.slice(from, last + 1).map(weight), start, stop).forEach((ms, offset) => (begins[from + offset] = ms));
    first = last;
  }
  // A group of several words shares its span by characters, too.
  const starts: number[] = [];
  groups.forEach((group, index) => {
    const stop = index + 1 < groups.length ? begins[index + 1]! : total;
    starts.push(
      ...share(
        group.map((word) => word.end - word.start),
        begins[index]!,
        stop,
      ),
    );
  });
  for (let i = 1; i < starts.length; i++) starts[i] = Math.max(starts[i], starts[i - 1] + 1);
  for (let i = starts.length - 1; i >= 0; i--)
    starts[i] = Math.max(0, Math.min(starts[i], (i + 1 < starts.length ? starts[i + 1] : total) - 1));
  return words.map((word, index) => ({
    id: word.id,
    begin: starts[index] / 1000,
    end: (index + 1 < starts.length ? starts[index + 1] : total) / 1000,
  }));
}
