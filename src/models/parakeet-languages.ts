/** The languages a Parakeet model transcribes, told from its file name (the header does not say). */

/**
 * Parakeet TDT 0.6B v3: English and 24 European languages (NVIDIA's model card: bg, hr, cs, da, nl, en, et,
 * fi, fr, de, el, hu, it, lv, lt, mt, pl, pt, ro, sk, sl, es, sv, ru, uk).
 */
export const PARAKEET_V3_LANGUAGES: readonly string[] = [
  'en', 'bg', 'hr', 'cs', 'da', 'nl', 'et', 'fi', 'fr', 'de', 'el', 'hu', 'it', 'lv', 'lt', 'mt', 'pl', 'pt',
  'ro', 'sk', 'sl', 'es', 'sv', 'ru', 'uk',
];

/** The English-only v2 model is the only other Parakeet TDT model; anything else is taken for v3. */
export function parakeetLanguages(modelName: string): readonly string[] {
  return /(^|[^a-z0-9])v2([^a-z0-9]|$)/i.test(modelName) ? ['en'] : PARAKEET_V3_LANGUAGES;
}

/**
 * Whether a model covering `languages` transcribes an API language (`auto`, or a BCP-47 tag whose
 * primary subtag counts). Parakeet finds the language itself, so `auto` is always served.
 */
export function coversLanguage(languages: readonly string[], language: string): boolean {
  const lower = language.trim().toLowerCase();
  return lower === 'auto' || languages.includes(lower.split('-')[0] ?? '');
}
