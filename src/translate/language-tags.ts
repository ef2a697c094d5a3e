/**
 * Which language tags a translation or a dub may name: a well-formed tag (`de`, `pt-BR`) whose language the
 * runtime's CLDR data knows by name, so a typo such as `xx` is refused before a model is loaded, not
 * translated into a language nobody asked for.
 */

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** Tags that are well formed and named in CLDR but name no language to write in. */
const NOT_A_LANGUAGE: ReadonlySet<string> = new Set(['und', 'mul', 'zxx', 'mis']);

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** Whether `tag` names a language one can translate into or from. */
export function isKnownLanguageTag(tag: string): boolean {
  if (!LANGUAGE_TAG.test(tag)) return false;
  const primary = tag.split('-')[0].toLowerCase();
  if (NOT_A_LANGUAGE.has(primary)) return false;
  try {
    return names.of(primary) !== undefined;
  } catch {
    return false;
  }
}
