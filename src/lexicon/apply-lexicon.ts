/**
 * Applies pronunciation lexicon entries to a text: whole words (spaces in an entry match any spacing),
 * case-insensitive unless `caseSensitive`, longer entries first, and no entry replaces inside another's match.
 * An engine that speaks espeak-ng phonemes gets them in its inline syntax; any other speaks `say`, or
 * leaves the word when the entry has none (reported as skipped).
 */
import type { LexiconEntry, LexiconReport } from '../contract/types';
import { LexiconMatcher } from './lexicon-matcher';

/** How an engine writes phonemes inline (espeak-ng: `[[dZIf]]`); undefined when it takes none. */
export type PhonemeWriter = (phonemes: string) => string;

export const espeakPhonemes: PhonemeWriter = (phonemes) => `[[${phonemes}]]`;

export interface LexiconApplication {
  text: string;
  report: LexiconReport;
}

/** Whether an entry is for this language: no language, the same one, or one a subtag apart (en and en-US). */
export function entryFitsLanguage(entry: LexiconEntry, language: string): boolean {
  if (entry.language === undefined || language.toLowerCase() === 'auto') return true;
  const [want, have] = [entry.language.toLowerCase(), language.toLowerCase()];
  return want === have || have.startsWith(`${want}-`) || want.startsWith(`${have}-`);
}

/** Matchers by lexicon list: the data directory's lexicon is one list for as long as its file is unchanged. */
const matchers = new WeakMap<readonly LexiconEntry[], LexiconMatcher>();

/** The entries whose text occurs in this text: what a job keeps of the lexicon when it is created. */
export function entriesIn(text: string, entries: readonly LexiconEntry[]): LexiconEntry[] {
  let matcher = matchers.get(entries);
  if (!matcher) matchers.set(entries, (matcher = new LexiconMatcher(entries)));
  const found = new Set(matcher.matches(text).map((match) => match.entry));
  return entries.filter((_, index) => found.has(index));
}

/** A lexicon ready to apply to many pieces of one job's text: the entries for `language`, indexed once. */
export function compileLexicon(
  entries: readonly LexiconEntry[],
  language: string,
  phonemes?: PhonemeWriter,
): (text: string) => LexiconApplication {
  const fitting = entries.filter((entry) => entryFitsLanguage(entry, language));
  const matcher = new LexiconMatcher(fitting);
  const replacements = fitting.map((entry) =>
    entry.phonemes !== undefined && phonemes ? phonemes(entry.phonemes) : entry.say,
  );
  // Longer entries first, then the list's order: a shorter entry never replaces inside a longer one's match.
  const rank = fitting
    .map((_, index) => index)
    .sort((a, b) => fitting[b].text.length - fitting[a].text.length || a - b);
  const priority = new Int32Array(fitting.length);
  rank.forEach((index, place) => (priority[index] = place));
  return (text) => {
    const matches = matcher.matches(text).sort((a, b) => priority[a.entry] - priority[b.entry] || a.start - b.start);
    const used = new Uint8Array(text.length);
    const taken: { start: number; end: number; replacement: string }[] = [];
    const applied = new Set<string>();
    const skipped = new Map<string, string>();
    for (const { start, end, entry } of matches) {
      if (used.subarray(start, end).includes(1)) continue;
      const replacement = replacements[entry];
      const name = fitting[entry].text;
      if (replacement === undefined) {
        skipped.set(name, 'the engine takes no phonemes and the entry has no say');
        continue;
      }
      used.fill(1, start, end);
      taken.push({ start, end, replacement });
      applied.add(name);
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
    return {
      text: out,
      report: { applied: [...applied], skipped: [...skipped].map(([name, reason]) => ({ text: name, reason })) },
    };
  };
}

/** The text with the entries for `language` applied, and which entries were applied or skipped. */
export function applyLexicon(
  text: string,
  entries: readonly LexiconEntry[],
  language: string,
  phonemes?: PhonemeWriter,
): LexiconApplication {
  return compileLexicon(entries, language, phonemes)(text);
}
