/**
 * Editing one entry of a lexicon's list, as the editor's pronunciation list does it: replace an entry (same
 * text and language, or a renamed one) or remove it, leaving the other entries as they were written.
 */
import type { LexiconEntry } from '../contract/types';
import { entryIdentity } from './merge-lexicon';

/** The entries with `old` replaced by `updated` in place; `updated` is added when `old` is not there. */
export function replaceEntry(
  entries: readonly LexiconEntry[],
  old: LexiconEntry,
  updated: LexiconEntry,
): LexiconEntry[] {
  const identity = entryIdentity(old);
  const at = entries.findIndex((entry) => entryIdentity(entry) === identity);
  if (at < 0) return [...entries, updated];
  const result = [...entries];
  result[at] = updated;
  // A new text that another entry already had: the edited entry wins, the other goes.
  const updatedIdentity = entryIdentity(updated);
  return result.filter((entry, index) => index === at || entryIdentity(entry) !== updatedIdentity);
}

/** The entries without `removed` (matched by text and language). */
export function removeEntry(entries: readonly LexiconEntry[], removed: LexiconEntry): LexiconEntry[] {
  const identity = entryIdentity(removed);
  return entries.filter((entry) => entryIdentity(entry) !== identity);
}
