/**
 * Free-text voice search: every word of the query must occur in one of the voice's search terms
 * (its name, language code, and the language's English and native names), ignoring case and accents.
 */

/**
 * Case-folded, without accents or compatibility forms: `Português` → `portugues`, `Ｆｒｅｎｃｈ` → `french`,
 * `Straße` → `strasse` (upper-casing first folds what lower-casing alone keeps apart).
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase().toLowerCase();
}

const termsCache = new Map<string, string[]>();

/** The folded terms a voice is found by; remembered, as ICU's language names cost a millisecond a voice. */
export function searchTermsFor(name: string, languageCode: string): string[] {
  const key = `${name}\n${languageCode}`;
  let terms = termsCache.get(key);
  if (!terms) {
    if (termsCache.size >= 10_000) termsCache.clear();
    terms = foldedTerms(name, languageCode);
    termsCache.set(key, terms);
  }
  return terms;
}

function foldedTerms(name: string, languageCode: string): string[] {
  const language = languageCode.split('-')[0];
  const terms = [name, languageCode, languageName(language, 'en'), languageName(language, language)];
  return [...new Set(terms.filter((term): term is string => term !== undefined).map(foldForSearch))];
}

/** True when every word of `query` occurs in some term. An empty query matches everything. */
export function matchesSearch(terms: readonly string[], query: string): boolean {
  const words = foldForSearch(query).split(/\s+/u).filter(Boolean);
  return words.every((word) => terms.some((term) => term.includes(word)));
}

/**
 * The name of a language (a primary subtag) in `displayLocale`, e.g. `fr` → `French` or `français`;
 * undefined when ICU does not know it. Only the primary subtag: espeak's `ca-BA` means Balearic, not Bosnia.
 */
function languageName(language: string, displayLocale: string): string | undefined {
  try {
    const name = new Intl.DisplayNames([displayLocale], { type: 'language', fallback: 'none' }).of(language);
    return name && name.toLowerCase() !== language.toLowerCase() ? name : undefined;
  } catch {
    return undefined; // a code ICU rejects as a locale, e.g. a private-use one
  }
}
