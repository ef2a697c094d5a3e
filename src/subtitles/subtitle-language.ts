/**
 * The language of a subtitle file for a media container's track tag: read from the file name
 * (`talk.en.srt`, `talk.pt-BR.ass`) and written as the ISO 639-2 code that MP4 and Matroska tracks carry.
 */

/** ISO 639-1 → ISO 639-2/B for the languages subtitles are most often made in; others pass as 3 letters or `und`. */
const ALPHA3: Record<string, string> = {
  ar: 'ara',
  bg: 'bul',
  bn: 'ben',
  ca: 'cat',
  cs: 'cze',
  cy: 'wel',
  da: 'dan',
  de: 'ger',
  el: 'gre',
  en: 'eng',
  es: 'spa',
  et: 'est',
  eu: 'baq',
  fa: 'per',
  fi: 'fin',
  fr: 'fre',
  ga: 'gle',
  gl: 'glg',
  he: 'heb',
  hi: 'hin',
  hr: 'hrv',
  hu: 'hun',
  id: 'ind',
  is: 'ice',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  lt: 'lit',
  lv: 'lav',
  ms: 'may',
  nb: 'nob',
  nl: 'dut',
  nn: 'nno',
  no: 'nor',
  pl: 'pol',
  pt: 'por',
  ro: 'rum',
  ru: 'rus',
  sk: 'slo',
  sl: 'slv',
  sr: 'srp',
  sv: 'swe',
  sw: 'swa',
  ta: 'tam',
  th: 'tha',
  tr: 'tur',
  uk: 'ukr',
  ur: 'urd',
  vi: 'vie',
  zh: 'chi',
};

/** ISO 639-2/T codes where they differ from the /B codes above (`deu` for `ger`): file names use either. */
const TERMINOLOGY = new Set([
  'ces',
  'cym',
  'deu',
  'ell',
  'eus',
  'fas',
  'fra',
  'isl',
  'msa',
  'nld',
  'ron',
  'slk',
  'zho',
]);

/** The language tag in a subtitle file name (`movie.en.srt` → `en`, `movie.pt-BR.vtt` → `pt-BR`), if it has one. */
export function languageFromFileName(fileName: string): string | undefined {
  const base = fileName.replace(/^.*[\\/]/, '');
  const match = /\.([a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?)\.[a-z0-9]+$/i.exec(base);
  if (!match) return undefined;
  const [language] = match[1].split(/[-_]/);
  const code = language.toLowerCase();
  const known = ALPHA3[code] !== undefined || Object.values(ALPHA3).includes(code) || TERMINOLOGY.has(code);
  return known ? match[1].replace('_', '-') : undefined;
}

/**
 * The ISO 639-2 code for a language tag: `en` and `en-GB` → `eng`, a 3-letter code as it is, else `und`.
 * @example trackLanguage('pt-BR') === 'por'
 */
export function trackLanguage(tag: string | undefined): string {
  const language = (tag ?? '').trim().split(/[-_]/)[0].toLowerCase();
  if (/^[a-z]{3}$/.test(language)) return language;
  return ALPHA3[language] ?? 'und';
}
