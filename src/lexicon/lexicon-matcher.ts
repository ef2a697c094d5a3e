/**
 * Finds where lexicon entries occur in a text in one pass over its words, so the work grows with the text
 * and the entries that share a first word, not with text × entries (a 99 000-character text against 5 000
 * entries took seconds as one regular-expression scan per entry). Each entry is indexed by its first run of
 * word characters, case-folded; at each word of the text only the entries indexed by that word are compared
 * with the text where the entry would start. Entries without a word character (the lexicon's rules refuse
 * them; the engine may be handed older ones) keep one scan each.
 */
import type { LexiconEntry } from '../contract/types';

const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}_]';
const WORD_RUN = /[\p{L}\p{N}\p{M}_]+/gu;
const FIRST_WORD_RUN = /[\p{L}\p{N}\p{M}_]+/u;

export interface LexiconMatch {
  start: number;
  end: number;
  /** The entry's index in the list the matcher was built from. */
  entry: number;
}

interface Compiled {
  index: number;
  /** The entry's words (spaces in the entry match any run of spacing), lower-cased unless case-sensitive. */
  words: string[];
  caseSensitive: boolean;
  /** Characters of the entry before its first word character (`.NET` → 1). */
  lead: number;
}

const WORD_BEFORE = /[\p{L}\p{N}\p{M}_]$/u;
const WORD_AFTER = /^[\p{L}\p{N}\p{M}_]/u;
const SPACE = /\s/u;

/**
 * Where the entry ends when it occurs at `start` as whole words, else -1. Compared by hand, not by one
 * regular expression per entry: compiling thousands of Unicode-aware case-insensitive expressions alone
 * took seconds.
 */
function matchAt(text: string, start: number, entry: Compiled): number {
  if (start > 0 && WORD_BEFORE.test(text.slice(Math.max(0, start - 2), start))) return -1;
  let at = start;
  for (const [place, word] of entry.words.entries()) {
    if (place > 0) {
      const spaceStart = at;
      while (at < text.length && SPACE.test(text[at])) at++;
      if (at === spaceStart) return -1;
    }
    const piece = text.slice(at, at + word.length);
    if ((entry.caseSensitive ? piece : piece.toLowerCase()) !== word) return -1;
    at += word.length;
  }
  return WORD_AFTER.test(text.slice(at, at + 2)) ? -1 : at;
}

/** Whole words (spaces in an entry match any spacing), case-insensitive unless `caseSensitive`. */
export function entrySource(entry: LexiconEntry): string {
  const words = entry.text
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `(?<!${WORD_CHAR})${words.join('\\s+')}(?!${WORD_CHAR})`;
}

/** One key for what case-insensitive matching treats as equal (ß, ẞ and SS alike): a superset is fine, it is checked. */
const foldKey = (word: string): string => word.toLowerCase().toUpperCase().toLowerCase();

export class LexiconMatcher {
  private readonly byFirstWord = new Map<string, Compiled[]>();
  private readonly withoutWord: { index: number; global: RegExp }[] = [];

  constructor(entries: readonly LexiconEntry[]) {
    entries.forEach((entry, index) => {
      const text = entry.text.trim();
      const first = FIRST_WORD_RUN.exec(text);
      if (!first) {
        this.withoutWord.push({ index, global: new RegExp(entrySource(entry), entry.caseSensitive ? 'gu' : 'giu') });
        return;
      }
      const key = foldKey(first[0]);
      const list = this.byFirstWord.get(key) ?? [];
      const words = text.split(/\s+/).map((word) => (entry.caseSensitive ? word : word.toLowerCase()));
      list.push({ index, words, caseSensitive: entry.caseSensitive === true, lead: first.index });
      this.byFirstWord.set(key, list);
    });
  }

  /** Every place an entry occurs, in text order per entry (overlaps between entries included). */
  matches(text: string): LexiconMatch[] {
    const found: LexiconMatch[] = [];
    const lastEnd = new Map<number, number>();
    for (const word of text.matchAll(WORD_RUN)) {
      const candidates = this.byFirstWord.get(foldKey(word[0]));
      if (!candidates) continue;
      for (const candidate of candidates) {
        const start = word.index - candidate.lead;
        // An entry's own matches do not overlap, as a global scan would find them.
        if (start < (lastEnd.get(candidate.index) ?? 0) || start < 0) continue;
        const end = matchAt(text, start, candidate);
        if (end < 0) continue;
        found.push({ start, end, entry: candidate.index });
        lastEnd.set(candidate.index, end);
      }
    }
    for (const { index, global } of this.withoutWord) {
      for (const match of text.matchAll(global))
        found.push({ start: match.index, end: match.index + match[0].length, entry: index });
    }
    return found;
  }
}
