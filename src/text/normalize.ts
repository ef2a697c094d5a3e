/**
 * `preprocessPrompt`: text as a listener expects it read. Markdown markup and code fences are not spoken as
 * symbols, web and e-mail addresses are read as people say them, and in English numbers, money, dates,
 * times, units and abbreviations become words. Other languages keep their numbers for the engine, which
 * reads them in its own language.
 *
 * @example normalizeText('**Total:** $12.50 on 2024-03-15', 'en-US')
 * // 'Total: twelve dollars and fifty cents on March fifteenth, twenty twenty-four'
 */
import { normalizeEnglish } from './english';
import { markdownToSpeech } from './markdown';
import { speakAddresses } from './urls';

/** Regions that write dates day first; the other English locales (en-US and a few) write the month first. */
const MONTH_FIRST_REGIONS = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'UM', 'AS', 'GU', 'MP', 'PR', 'VI']);

export function normalizeText(text: string, languageCode: string): string {
  const [language, region] = languageCode.split('-');
  let out = markdownToSpeech(text, languageCode);
  out = speakAddresses(out, languageCode);
  if (language.toLowerCase() === 'en') {
    const dayFirst =
      region !== undefined && /^[A-Za-z]{2}$/.test(region) && !MONTH_FIRST_REGIONS.has(region.toUpperCase());
    out = normalizeEnglish(out, dayFirst);
  }
  // Symbols no engine should spell: runs of separators and stray markup characters.
  return out.replace(/[*_=~^|\\]{2,}/g, ' ').replace(/[ \t]{2,}/g, ' ');
}
