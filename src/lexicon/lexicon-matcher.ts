/**
 * Finds where lexicon entries occur in a text in one pass over its words, so the work grows with the text
 * and the entries that share a first word, not with text × entries (a 99 000-character text against 5 000
 * entries took seconds as one regular-expression scan per entry). Each entry is indexed by its first run of
 * word characters, case-folded; at each word of the text only the entries indexed by that word are tried, by
 * a sticky expression anchored where the entry would start. Entries without a word character are few and
 * keep one scan each.
 */
import type { LexiconEntry } from '../contract/types';

const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}_]';
const WORD_RUN = /[\p{L}\p{N}\p{M}_]+/gu;

export interface LexiconMatch {
  start: number;
  end: number;
  /** The entry's index in the list the matcher was built from. */
  entry: number;
}

interface Compiled {
  index: number;
  /** Anchored at the entry's start (sticky); `global` scans a whole text for entries without a word. */
  sticky: RegExp;
  /** Characters of the entry before its first word character (`.NET` → 1). */
  lead: number;
}

/** Whole words (spaces in an entry match any spacing), case-insensitive unless `caseSensitive`. */
export function entrySource(entry: LexiconEntry): string {
  const words = entry.text.trim().split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `(?<!${WORD_CHAR})${words.join('\\s+')}(?!${WORD_CHAR})`;
}

/** One key for what case-insensitive matching treats as equal (ß, ẞ and SS alike): a superset is fine, it is checked. */
const foldKey = (word: string): string => word.toLowerCase().toUpperCase().toLowerCase();

export class LexiconMatcher {
  private readonly byFirstWord = new Map<string, Compiled[]>();
  private readonly withoutWord: { index: number; global: RegExp }[] = [];

  constructor(entries: readonly LexiconEntry[]) {
    entries.forEach((entry, index) => {
      const source = entrySource(entry);
      const flags = entry.caseSensitive ? 'u' : 'iu';
      const text = entry.text.trim();
      const first = new RegExp(WORD_RUN.source, 'u').exec(text);
      if (!first) {
        this.withoutWord.push({ index, global: new RegExp(source, `g${flags}`) });
        return;
      }
      const key = foldKey(first[0]);
      const list = this.byFirstWord.get(key) ?? [];
      list.push({ index, sticky: new RegExp(source, `y${flags}`), lead: first.index });
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
        candidate.sticky.lastIndex = start;
        const match = candidate.sticky.exec(text);
        if (!match) continue;
        found.push({ start, end: start + match[0].length, entry: candidate.index });
        lastEnd.set(candidate.index, start + match[0].length);
      }
    }
    for (const { index, global } of this.withoutWord) {
      for (const match of text.matchAll(global)) found.push({ start: match.index, end: match.index + match[0].length, entry: index });
    }
    return found;
  }
}
