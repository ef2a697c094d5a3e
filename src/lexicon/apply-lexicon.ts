/**
 * Applies pronunciation lexicon entries to a text: whole words (spaces in an entry match any spacing),
 * case-insensitive unless `caseSensitive`, longer entries first, and no entry replaces inside another's match.
 * An engine that speaks espeak-ng phonemes gets them in its inline syntax; any other speaks `say`, or
 * leaves the word when the entry has none (reported as skipped).
 */
import type { LexiconEntry, LexiconReport } from '../contract/types';

/** How an engine writes phonemes inline (espeak-ng: `[[dZIf]]`); undefined when it takes none. */
export type PhonemeWriter = (phonemes: string) => string;

export const espeakPhonemes: PhonemeWriter = (phonemes) => `[[${phonemes}]]`;

export interface LexiconApplication {
  text: string;
  report: LexiconReport;
}

const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}_]';

function entryPattern(entry: LexiconEntry): RegExp {
  const words = entry.text.trim().split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<!${WORD_CHAR})${words.join('\\s+')}(?!${WORD_CHAR})`, entry.caseSensitive ? 'gu' : 'giu');
}

/** Whether an entry is for this language: no language, the same one, or one a subtag apart (en and en-US). */
export function entryFitsLanguage(entry: LexiconEntry, language: string): boolean {
  if (entry.language === undefined || language.toLowerCase() === 'auto') return true;
  const [want, have] = [entry.language.toLowerCase(), language.toLowerCase()];
  return want === have || have.startsWith(`${want}-`) || want.startsWith(`${have}-`);
}

/** The entries whose text occurs in this text: what a job keeps of the lexicon when it is created. */
export function entriesIn(text: string, entries: readonly LexiconEntry[]): LexiconEntry[] {
  return entries.filter((entry) => entryPattern(entry).test(text));
}

/** The text with the entries for `language` applied, and which entries were applied or skipped. */
export function applyLexicon(text: string, entries: readonly LexiconEntry[], language: string, phonemes?: PhonemeWriter): LexiconApplication {
  const ordered = entries
    .filter((entry) => entryFitsLanguage(entry, language))
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => b.entry.text.length - a.entry.text.length || a.order - b.order);
  const taken: { start: number; end: number; replacement: string }[] = [];
  const applied = new Set<string>();
  const skipped = new Map<string, string>();
  for (const { entry } of ordered) {
    const replacement = entry.phonemes !== undefined && phonemes ? phonemes(entry.phonemes) : entry.say;
    for (const match of text.matchAll(entryPattern(entry))) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some((span) => start < span.end && span.start < end)) continue;
      if (replacement === undefined) {
        skipped.set(entry.text, 'the engine takes no phonemes and the entry has no say');
        continue;
      }
      taken.push({ start, end, replacement });
      applied.add(entry.text);
    }
  }
  taken.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const span of taken) {
    out += text.slice(at, span.start) + span.replacement;
    at = span.end;
  }
  out += text.slice(at);
  for (const name of applied) skipped.delete(name);
  return { text: out, report: { applied: [...applied], skipped: [...skipped].map(([name, reason]) => ({ text: name, reason })) } };
}
