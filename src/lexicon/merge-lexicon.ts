/**
 * Merges two pronunciation lexicons where one wins: the editor's workspace lexicon over the server's
 * data-directory lexicon. Entries are the same when their text (words, any case, any spacing) and language are.
 */
import type { LexiconEntry } from '../contract/types';

/** What makes two entries "the same word" across lexicons: the words case-folded, and the language. */
export function entryIdentity(entry: LexiconEntry): string {
  return JSON.stringify([entry.text.trim().replace(/\s+/g, ' ').toLowerCase(), entry.language?.toLowerCase() ?? null]);
}

/**
 * The winning entries first (so they also win ties of equal length when applied), then the base entries
 * the winners do not replace.
 */
export function mergeLexicons(
  base: readonly LexiconEntry[],
  winning: readonly LexiconEntry[],
): readonly LexiconEntry[] {
  // The same list, not a copy: what is built from a lexicon (its matcher) is kept per list.
  if (winning.length === 0) return base;
  const replaced = new Set(winning.map(entryIdentity));
  return [...winning, ...base.filter((entry) => !replaced.has(entryIdentity(entry)))];
}
