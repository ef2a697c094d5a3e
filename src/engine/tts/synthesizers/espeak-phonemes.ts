/**
 * SSML's phonemes (IPA or X-SAMPA) as espeak-ng's own phoneme mnemonics, which espeak speaks when they stand
 * in `[[ ]]`. The table covers the phonemes of English and the common ones of other European languages;
 * a symbol outside it makes the conversion fail, and the written word is spoken instead (and reported).
 */

/** IPA → espeak, longest first at each position. */
const IPA_TO_ESPEAK: ReadonlyArray<readonly [string, string]> = [
  ['tʃ', 'tS'],
  ['dʒ', 'dZ'],
  ['aɪ', 'aI'],
  ['aʊ', 'aU'],
  ['eɪ', 'eI'],
  ['ɔɪ', 'OI'],
  ['oʊ', 'oU'],
  ['əʊ', '@U'],
  ['ɪə', 'i@'],
  ['eə', 'e@'],
  ['ɛə', 'e@'],
  ['ʊə', 'U@'],
  ['iː', 'i:'],
  ['uː', 'u:'],
  ['ɑː', 'A:'],
  ['ɔː', 'O:'],
  ['ɜː', '3:'],
  ['ɝ', '3:'],
  ['ɚ', '3'],
  ['ə', '@'],
  ['æ', 'a'],
  ['ɐ', 'a#'],
  ['ɑ', 'A:'],
  ['ɒ', '0'],
  ['ɔ', 'O'],
  ['ɛ', 'E'],
  ['ɪ', 'I'],
  ['ʊ', 'U'],
  ['ʌ', 'V'],
  ['ø', 'Y'],
  ['œ', 'W'],
  ['y', 'y'],
  ['ɨ', 'i#'],
  ['θ', 'T'],
  ['ð', 'D'],
  ['ʃ', 'S'],
  ['ʒ', 'Z'],
  ['ŋ', 'N'],
  ['ɲ', 'n^'],
  ['ɹ', 'r'],
  ['ɾ', '*'],
  ['ʁ', 'R'],
  ['ʀ', 'R'],
  ['x', 'x'],
  ['ç', 'C'],
  ['ɣ', 'Q'],
  ['ʔ', '?'],
  ['ɡ', 'g'],
  ['ɫ', 'l'],
  ['ʎ', 'l^'],
  ['ˈ', "'"],
  ['ˌ', ','],
  ['ː', ':'],
  ['ˑ', ''],
  ['.', ''],
  [' ', ' '],
  ...[...'abdefhijklmnoprstuvwz'].map((c) => [c, c] as const),
];

/** X-SAMPA → IPA, longest first, so X-SAMPA goes through the same table. */
const XSAMPA_TO_IPA: ReadonlyArray<readonly [string, string]> = [
  ['r\\', 'ɹ'],
  ['3`', 'ɝ'],
  ['@`', 'ɚ'],
  ['tS', 'tʃ'],
  ['dZ', 'dʒ'],
  ['"', 'ˈ'],
  ['%', 'ˌ'],
  [':', 'ː'],
  ['@', 'ə'],
  ['{', 'æ'],
  ['6', 'ɐ'],
  ['A', 'ɑ'],
  ['O', 'ɔ'],
  ['E', 'ɛ'],
  ['I', 'ɪ'],
  ['U', 'ʊ'],
  ['V', 'ʌ'],
  ['Q', 'ɒ'],
  ['3', 'ɜ'],
  ['2', 'ø'],
  ['9', 'œ'],
  ['1', 'ɨ'],
  ['T', 'θ'],
  ['D', 'ð'],
  ['S', 'ʃ'],
  ['Z', 'ʒ'],
  ['N', 'ŋ'],
  ['J', 'ɲ'],
  ['4', 'ɾ'],
  ['R', 'ʁ'],
  ['C', 'ç'],
  ['G', 'ɣ'],
  ['?', 'ʔ'],
  ['g', 'ɡ'],
  ['5', 'ɫ'],
  ['L', 'ʎ'],
  ['.', '.'],
  [' ', ' '],
  ...[...'abdefhijklmnoprstuvwxyz'].map((c) => [c, c] as const),
];

function convert(input: string, table: ReadonlyArray<readonly [string, string]>): string | undefined {
  const sorted = [...table].sort((a, b) => b[0].length - a[0].length);
  let out = '';
  let at = 0;
  const text = input.normalize('NFC');
  while (at < text.length) {
    const hit = sorted.find(([from]) => text.startsWith(from, at));
    if (!hit) return undefined;
    out += hit[1];
    at += hit[0].length;
  }
  return out;
}

/**
 * The `[[ ]]` input espeak speaks for SSML phonemes, or undefined when a symbol is outside the table.
 * @example espeakPhonemes('ipa', 'həˈloʊ') === "[[h@'loU]]"
 */
export function espeakPhonemes(alphabet: 'ipa' | 'x-sampa', ph: string): string | undefined {
  const ipa = alphabet === 'ipa' ? ph : convert(ph, XSAMPA_TO_IPA);
  if (ipa === undefined) return undefined;
  const espeak = convert(ipa, IPA_TO_ESPEAK);
  return espeak === undefined || espeak.trim() === '' ? undefined : `[[${espeak.trim()}]]`;
}
