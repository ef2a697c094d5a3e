/**
 * Abbreviations whose full stop does not end a sentence, per language: titles before a name, and the
 * short forms a sentence goes on after. Each is lower-case without its final full stop; an entry ending in
 * `#` continues the sentence only before a number ("No. 5", "S. 12"), since the bare word may end one.
 * Words that often end a sentence themselves ("etc.", "Inc.", "usw.") are left out: a capital after them
 * starts a new sentence, a lower-case word does not (see sentence-breaks.ts).
 */

const COMMON = [
  'dr',
  'prof',
  'st',
  'e.g',
  'i.e',
  'cf',
  'vs',
  'ca',
  'approx',
  'no#',
  'nr#',
  'vol#',
  'fig#',
  'p#',
  'pp#',
];

const BY_LANGUAGE: Record<string, readonly string[]> = {
  en: [
    'mr',
    'mrs',
    'ms',
    'mx',
    'messrs',
    'mmes',
    'sr',
    'jr#',
    'rev',
    'hon',
    'gen',
    'col',
    'capt',
    'cpt',
    'lt',
    'sgt',
    'cmdr',
    'adm',
    'gov',
    'sen',
    'rep',
    'pres',
    'fr',
    'mt',
    'ft#',
    'ave',
    'blvd',
    'rd#',
    'dept',
    'est',
    'viz',
    'a.m',
    'p.m',
    'u.s',
    'u.k',
    'jan',
    'feb',
    'mar#',
    'apr',
    'jun#',
    'jul',
    'aug',
    'sep',
    'sept',
    'oct',
    'nov',
    'dec',
    'ch#',
    'sec#',
    'figs#',
    'nos#',
    'vols#',
  ],
  de: [
    'hr',
    'hrn',
    'fr',
    'frl',
    'dipl',
    'ing',
    'mag',
    'bzw',
    'z.b',
    'u.a',
    'd.h',
    'o.ä',
    'u.ä',
    'vgl',
    'ggf',
    'evtl',
    'inkl',
    'sog',
    'bspw',
    'zzgl',
    'abs#',
    'art#',
    's#',
    'tel',
    'str',
    'jh#',
    'jhd#',
    'mio#',
    'mrd#',
  ],
  fr: ['m', 'mm', 'mme', 'mmes', 'mlle', 'mlles', 'pr', 'me', 'mgr', 'ste', 'av', 'bd', 'p.ex', 'env', 'chap#', 'n°#'],
  es: ['sr', 'sra', 'srta', 'sres', 'dra', 'd', 'dña', 'ud', 'uds', 'sto', 'sta', 'av', 'pág#', 'núm#', 'p.ej'],
  it: ['sig', 'sigg', 'sig.ra', 'sig.na', 'dott', 'dott.ssa', 'ing', 'avv', 'geom', 'rag', 'on', 'pag#', 'es'],
  pt: ['sr', 'sra', 'srta', 'dra', 'av', 'pág#', 'exmo', 'exma', 'v.exa'],
  nl: ['dhr', 'mevr', 'mw', 'bijv', 'blz#', 'o.a', 'm.b.t', 'i.p.v', 'z.g.a.n'],
  ru: ['г', 'гг', 'т.е', 'т.к', 'ул', 'им', 'проф', 'акад', 'тов', 'с#', 'стр#', 'рис#'],
};

const cache = new Map<string, ReadonlySet<string>>();

/** The abbreviations of a language (`en`, `de-AT`, `pt_BR`): its own list and the common one. */
export function abbreviationsFor(language: string): ReadonlySet<string> {
  const primary = language.toLowerCase().split(/[-_]/)[0] ?? '';
  let set = cache.get(primary);
  if (!set) {
    set = new Set(
      [...COMMON, ...(BY_LANGUAGE[primary] ?? [])].flatMap((entry) =>
        entry.endsWith('#') ? [entry] : [entry, `${entry}#`],
      ),
    );
    cache.set(primary, set);
  }
  return set;
}
