/**
 * Puts a language tag into the conventional BCP 47 letter case (RFC 5646 §2.1.1): language lower-case,
 * script title-case, region upper-case; subtags after a singleton (`x-…`, extensions) stay as they are.
 *
 * @example caseLanguageTag('en-gb-x-rp') // 'en-GB-x-rp'
 */
export function caseLanguageTag(tag: string): string {
  let afterSingleton = false;
  return tag
    .split('-')
    .map((subtag, index) => {
      if (index === 0) return subtag.toLowerCase();
      if (afterSingleton) return subtag;
      if (subtag.length === 1) {
        afterSingleton = true;
        return subtag.toLowerCase();
      }
      if (/^[a-z]{2}$/i.test(subtag)) return subtag.toUpperCase();
      if (/^[a-z]{4}$/i.test(subtag)) return subtag[0].toUpperCase() + subtag.slice(1).toLowerCase();
      return subtag;
    })
    .join('-');
}

/** True when `tag` is `prefix` or extends it at a subtag boundary, ignoring case (`en` ⊇ `en-GB-x-rp`). */
export function languageTagStartsWith(tag: string, prefix: string): boolean {
  const lowerTag = tag.toLowerCase();
  const lowerPrefix = prefix.toLowerCase();
  return lowerTag === lowerPrefix || lowerTag.startsWith(`${lowerPrefix}-`);
}
