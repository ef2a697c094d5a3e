/**
 * Finds where lexicon entries occur in a text in one pass over its words. The entries are one trie of
 * characters (case-folded for the case-insensitive ones; a space in an entry is an edge that takes any run of
 * spacing), and at each word of the text one walk down the trie finds every entry that starts there. A walk
 * never goes deeper than the longest entry, so the work grows with the text times that length, not with the
 * entries that share a beginning: 400 entries with a long common prefix on 99 000 characters took 142 s when
 * each entry starting at a word was compared on its own. Entries whose text starts with characters that are
 * not word characters (`.NET`) have a trie per such lead length, walked from that many characters before the
 * word. Entries without a word character (the lexicon's rules refuse them; the engine may be handed older
 * ones) keep one scan each.
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

interface TrieNode {
  /** By the next character of an entry (lower-cased in the case-insensitive trie). */
  next: Map<string, TrieNode>;
  /** The edge for a space between an entry's words: one or more spacing characters of the text. */
  space?: TrieNode;
  /** The entries that end here. */
  ends: number[];
}

interface Trie {
  root: TrieNode;
  caseSensitive: boolean;
}

const WORD_BEFORE = /[\p{L}\p{N}\p{M}_]$/u;
const WORD_AFTER = /^[\p{L}\p{N}\p{M}_]/u;
const SPACE = /\s/u;

const newNode = (): TrieNode => ({ next: new Map(), ends: [] });

/** One character of an entry or the text as the trie compares it (a whole code point, folded if need be). */
function keyOf(char: string, caseSensitive: boolean): string {
  return caseSensitive ? char : char.toLowerCase();
}

function insert(trie: Trie, text: string, index: number): void {
  let node = trie.root;
  for (const [place, word] of text.split(/\s+/).entries()) {
    if (place > 0) node = node.space ??= newNode();
    for (const char of word) {
      const key = keyOf(char, trie.caseSensitive);
      let child = node.next.get(key);
      if (!child) node.next.set(key, (child = newNode()));
      node = child;
    }
  }
  node.ends.push(index);
}

/** Whole words (spaces in an entry match any spacing), case-insensitive unless `caseSensitive`. */
export function entrySource(entry: LexiconEntry): string {
  const words = entry.text
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `(?<!${WORD_CHAR})${words.join('\\s+')}(?!${WORD_CHAR})`;
}

export class LexiconMatcher {
  /** Tries by the number of characters the entries have before their first word character. */
  private readonly byLead = new Map<number, Trie[]>();
  private readonly withoutWord: { index: number; global: RegExp }[] = [];

  constructor(entries: readonly LexiconEntry[]) {
    entries.forEach((entry, index) => {
      const text = entry.text.trim();
      const first = FIRST_WORD_RUN.exec(text);
      if (!first) {
        this.withoutWord.push({ index, global: new RegExp(entrySource(entry), entry.caseSensitive ? 'gu' : 'giu') });
        return;
      }
      const caseSensitive = entry.caseSensitive === true;
      const tries = this.byLead.get(first.index) ?? [];
      let trie = tries.find((candidate) => candidate.caseSensitive === caseSensitive);
      if (!trie) tries.push((trie = { root: newNode(), caseSensitive }));
      this.byLead.set(first.index, tries);
      insert(trie, text, index);
    });
  }

  /** Every place an entry occurs, in text order per entry (overlaps between entries included). */
  matches(text: string): LexiconMatch[] {
    const found: LexiconMatch[] = [];
    const lastEnd = new Map<number, number>();
    const spacing = new SpacingRuns(text);
    for (const word of text.matchAll(WORD_RUN)) {
      for (const [lead, tries] of this.byLead) {
        const start = word.index - lead;
        if (start < 0 || (start > 0 && WORD_BEFORE.test(text.slice(Math.max(0, start - 2), start)))) continue;
        for (const trie of tries)
          walk(text, start, trie, spacing, (end, entry) => {
            // An entry's own matches do not overlap, as a global scan would find them.
            if (start < (lastEnd.get(entry) ?? 0)) return;
            found.push({ start, end, entry });
            lastEnd.set(entry, end);
          });
      }
    }
    for (const { index, global } of this.withoutWord) {
      for (const match of text.matchAll(global))
        found.push({ start: match.index, end: match.index + match[0].length, entry: index });
    }
    return found;
  }
}

/** Follows the text down the trie from `start`, reporting each entry that ends at a word boundary. */
function walk(
  text: string,
  start: number,
  trie: Trie,
  spacing: SpacingRuns,
  report: (end: number, entry: number) => void,
): void {
  let node: TrieNode | undefined = trie.root;
  let at = start;
  while (node) {
    if (node.ends.length > 0 && !WORD_AFTER.test(text.slice(at, at + 2)))
      for (const entry of node.ends) report(at, entry);
    if (at >= text.length) return;
    if (SPACE.test(text[at])) {
      if (!node.space) return;
      node = node.space;
      at = spacing.endOf(at);
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(at)!);
    node = node.next.get(keyOf(char, trie.caseSensitive));
    at += char.length;
  }
}

/** Where a run of spacing ends, each run measured once however many walks cross it. */
class SpacingRuns {
  private from = -1;
  private to = -1;
  constructor(private readonly text: string) {}

  endOf(at: number): number {
    if (at >= this.from && at < this.to) return this.to;
    let end = at;
    while (end < this.text.length && SPACE.test(this.text[end])) end++;
    [this.from, this.to] = [at, end];
    return end;
  }
}
