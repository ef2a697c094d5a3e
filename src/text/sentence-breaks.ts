/**
 * Where sentences end, for every part of the product that splits text into sentences (Read Aloud, the
 * audiobook's passages, the engine's chunks): a full stop after "Mr", "Dr", "St", an initial, "e.g." or
 * a decimal point does not end a sentence, so a dialogue tag is not read with a full stop before the name.
 * Abbreviations are per language (see sentence-abbreviations.ts); punctuation that always ends a sentence
 * (?, !, CJK end marks) is never vetoed.
 */
import { abbreviationsFor } from './sentence-abbreviations';

/** End punctuation (with closing quotes or brackets) before whitespace or the end, or after CJK end punctuation. */
const CANDIDATE_END = /[.!?…]+["'”’»)\]]*(?=\s|$)|[。！？]+["'”’»)\]]*/gu;
/** The word just before a full stop: letters, digits, inner dots and apostrophes, back to a space or bracket. */
const WORD_BEFORE = /[\p{L}\p{N}][\p{L}\p{N}.'’-]*$/u;
const LOWERCASE_START = /^\s+["'“‘«([]*\p{Ll}/u;
const DIGIT_START = /^\s+\d/u;
const CAPITAL_START = /^\s+["'“‘«([]*\p{Lu}/u;
const SINGLE_CAPITAL = /^\p{Lu}$/u;
const DOTTED_ABBREVIATION = /^(?:\p{L}{1,3}\.)+\p{L}{1,3}$/u;

/**
 * The offsets just past each sentence end in `text` (end punctuation and any closing quotes), in order.
 * `language` is a BCP 47 tag or its primary subtag (`en`, `de-AT`); unknown languages get the common list.
 *
 * @example sentenceEnds('Mr. Smith arrived. He sat.') // [18, 26]
 */
export function sentenceEnds(text: string, language = 'en'): number[] {
  const abbreviations = abbreviationsFor(language);
  const ends: number[] = [];
  for (const match of text.matchAll(CANDIDATE_END)) {
    const end = match.index + match[0].length;
    if (endsSentence(text, match.index, match[0], end, abbreviations)) ends.push(end);
  }
  return ends;
}

function endsSentence(
  text: string,
  at: number,
  punctuation: string,
  end: number,
  abbreviations: ReadonlySet<string>,
): boolean {
  const after = text.slice(end, end + 40);
  const marks = punctuation.replace(/["'”’»)\]]+$/u, '');
  if (/[!?。！？]/u.test(marks)) return true;
  // An ellipsis or a full stop followed by a lower-case word continues the sentence ("wait... and", "etc. and").
  if (LOWERCASE_START.test(after)) return false;
  if (marks !== '.') return true;
  if (punctuation !== marks) return true; // a full stop inside quotes or brackets ends its sentence
  const word = WORD_BEFORE.exec(text.slice(Math.max(0, at - 40), at))?.[0];
  if (!word) return true;
  const bare = word.toLowerCase();
  if (abbreviations.has(bare)) return false;
  // "No. 5", "p. 12", "Fig. 3": a short abbreviation before a number.
  if (DIGIT_START.test(after) && abbreviations.has(`${bare}#`)) return false;
  // An initial before a name: "J. R. R. Tolkien", "George W. Bush".
  if (SINGLE_CAPITAL.test(word) && CAPITAL_START.test(after)) return false;
  // "e.g", "i.e", "U.S", "a.m" before a capital: only a listed one continues ("U.S. Army" ends, as a reader would guess).
  if (DOTTED_ABBREVIATION.test(word)) return !abbreviations.has(bare);
  return true;
}
