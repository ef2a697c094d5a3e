// Marks that belong to words and numbers rather than to sentences: kept (50%, and/or, #1, AT&T).
const WORD_SYMBOLS = new Set(['%', '‰', '‱', '&', '@', '#', '*', '/', '\\', '§', '¶', '†', '‡', '_']);

// In order: an apostrophe inside a word (don't, l'homme); a hyphen inside a word or code (well-known,
// COVID-19); a decimal point, thousands separator or clock colon inside a number (3.5, 1,000, 10:30);
// otherwise any punctuation mark (captured).
const PUNCTUATION =
  /(?<=\p{L})['’ʼ](?=\p{L})|(?<=[\p{L}\p{N}])[-‐‑](?=[\p{L}\p{N}])|(?<=\p{N})[.,:](?=\p{N})|(\p{P})/gu;

// Chinese and Japanese punctuation sits between words without spaces: dropping it must not add one.
const CJK_PUNCTUATION = /^[\u3000-\u303f\uff00-\uffef]$/u;

/**
 * Removes sentence punctuation from recognized text for `punctuation: false`, keeping what is part of a
 * word or a number, then tidies the spaces.
 * @example stripPunctuation('Well, I don\'t know... 3.5% of it?') === "Well I don't know 3.5% of it"
 */
export function stripPunctuation(text: string): string {
  return text
    .replace(PUNCTUATION, (match: string, mark: string | undefined) => {
      if (mark === undefined || WORD_SYMBOLS.has(mark)) return match;
      return CJK_PUNCTUATION.test(mark) ? '' : ' ';
    })
    .replace(/\s+/gu, ' ')
    .trim();
}
