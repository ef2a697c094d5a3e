/**
 * English text normalization: money, percentages, dates, times, ordinals, years, numbers, units and common
 * abbreviations become the words a listener expects, so every engine reads them alike.
 */
import {
  cardinalWords,
  CURRENCY_SYMBOLS,
  decimalWords,
  digitWords,
  moneyWords,
  ordinalNumberWords,
  ordinalWords,
  wholeNumberWords,
  yearWords,
} from './english-numbers';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Abbreviations that are safe to expand wherever they occur (with their full stop). */
const ABBREVIATIONS: [RegExp, string][] = [
  [/\be\.g\.(?=\s|,|$)/gi, 'for example'],
  [/\bi\.e\.(?=\s|,|$)/gi, 'that is'],
  [/\betc\.(?=\s|,|$)/gi, 'et cetera'],
  [/\bvs\.?(?=\s)/gi, 'versus'],
  [/\bapprox\.(?=\s)/gi, 'approximately'],
  [/\bDr\.(?=\s+[A-Z])/g, 'Doctor'],
  [/\bMr\.(?=\s)/g, 'Mister'],
  [/\bMrs\.(?=\s)/g, 'Missus'],
  [/\bMs\.(?=\s)/g, 'Miz'],
  [/\bProf\.(?=\s+[A-Z])/g, 'Professor'],
  [/\bSt\.(?=\s+[A-Z])/g, 'Saint'],
  [/\bJr\.(?=\s|,|$)/g, 'Junior'],
  [/\bNo\.(?=\s*\d)/g, 'number'],
];

const UNITS: Record<string, [string, string]> = {
  km: ['kilometer', 'kilometers'],
  m: ['meter', 'meters'],
  cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'],
  kg: ['kilogram', 'kilograms'],
  g: ['gram', 'grams'],
  mg: ['milligram', 'milligrams'],
  lb: ['pound', 'pounds'],
  lbs: ['pounds', 'pounds'],
  ml: ['milliliter', 'milliliters'],
  l: ['liter', 'liters'],
  mph: ['mile per hour', 'miles per hour'],
  'km/h': ['kilometer per hour', 'kilometers per hour'],
  kb: ['kilobyte', 'kilobytes'],
  mb: ['megabyte', 'megabytes'],
  gb: ['gigabyte', 'gigabytes'],
  tb: ['terabyte', 'terabytes'],
  ms: ['millisecond', 'milliseconds'],
  h: ['hour', 'hours'],
  min: ['minute', 'minutes'],
  sec: ['second', 'seconds'],
  hz: ['hertz', 'hertz'],
  khz: ['kilohertz', 'kilohertz'],
  '°c': ['degree Celsius', 'degrees Celsius'],
  '°f': ['degree Fahrenheit', 'degrees Fahrenheit'],
};

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const escapeClass = (symbols: string[]): string => symbols.map((s) => s.replace(/[$^\\\]-]/g, '\\$&')).join('');

function numberWords(text: string): string {
  return /[.,]/.test(text) ? decimalWords(text) : wholeNumberWords(text);
}

/** A four-digit number that reads best as a year (1100–2099, not a quantity with a comma). */
const looksLikeYear = (text: string): boolean => /^\d{4}$/.test(text) && Number(text) >= 1100 && Number(text) <= 2099;

function dateWords(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return `${MONTHS[month - 1]} ${ordinalWords(day)}, ${yearWords(year)}`;
}

/** Phone numbers: `+1 (555) 123-4567`, `555-1234`; read digit by digit, a pause between groups. */
const PHONE =
  /(?<![\w.])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)\s?|\d{2,4}[\s.-])\d{3,4}[\s.-]\d{3,4}(?![\w.]*\d)|\b\d{3}-\d{4}\b/g;

function phoneWords(phone: string): string {
  const plus = phone.trim().startsWith('+') ? 'plus ' : '';
  return plus + (phone.match(/\d+/g) ?? []).map(digitWords).join(', ');
}

/** Decades: `1990s` → nineteen nineties, `80s` → eighties. */
function decadeWords(digits: string): string {
  const words = digits.length === 2 ? cardinalWords(Number(digits)) : yearWords(Number(digits));
  return words.replace(/y$/, 'ie') + 's';
}

function timeWords(hours: number, minutes: number, suffix?: string, seconds?: number): string {
  const hourWords = cardinalWords(hours);
  const minuteWords =
    minutes === 0 ? (suffix ? '' : "o'clock") : minutes < 10 ? `oh ${cardinalWords(minutes)}` : cardinalWords(minutes);
  const meridiem = suffix ? ` ${suffix.replace(/\./g, '').toUpperCase().split('').join(' ')}` : '';
  // "a.m." at the end of a sentence is also its full stop.
  const stop = suffix?.endsWith('.') ? '.' : '';
  const secondWords = seconds ? ` and ${cardinalWords(seconds)} second${seconds === 1 ? '' : 's'}` : '';
  return `${hourWords}${minuteWords ? ` ${minuteWords}` : ''}${secondWords}${meridiem}${stop}`;
}

/**
 * Normalizes English text. `dayFirst` reads 03/04/2024 as 3 April (en-GB and most of the world) rather than
 * March 4 (en-US).
 */
export function normalizeEnglish(text: string, dayFirst = false): string {
  let out = '';
  let at = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    out += normalizeWords(text.slice(at, run.index), dayFirst) + run[0];
    at = run.index + run[0].length;
  }
  return out + normalizeWords(text.slice(at), dayFirst);
}

/**
 * A run of more characters than this without a space is no number, date, time or unit, and is left as written:
 * the patterns below try a run of digits from each of its places, so 99 000 digits took seconds.
 */
const LONG_RUN = /\S{101,}/g;

function normalizeWords(text: string, dayFirst: boolean): string {
  let out = text;
  for (const [pattern, words] of ABBREVIATIONS) out = out.replace(pattern, words);
  const currency = `[${escapeClass(CURRENCY_SYMBOLS)}]`;
  out = out
    .replace(PHONE, phoneWords)
    .replace(/#(\d)/g, 'number $1')
    .replace(/\b(\d{4}|\d0)'?s\b/g, (whole, digits: string) => (digits.endsWith('0') ? decadeWords(digits) : whole))
    .replace(
      new RegExp(`(${currency})\\s?(${NUMBER})(?:\\s?(thousand|million|billion|trillion|[kKmMbB]n?)\\b)?`, 'g'),
      (_, symbol: string, amount: string, scale?: string) => moneyWords(symbol, amount, scaleWord(scale)),
    )
    .replace(new RegExp(`(-?(?:${NUMBER}))\\s?%`, 'g'), (_, n: string) => `${numberWords(n)} percent`)
    .replace(/\b(\d{4})-(\d{2})-(\d{2})\b/g, (whole, y: string, m: string, d: string) => dateWords(+y, +m, +d) ?? whole)
    .replace(
      /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g,
      (whole, a: string, b: string, y: string) => (dayFirst ? dateWords(+y, +b, +a) : dateWords(+y, +a, +b)) ?? whole,
    )
    .replace(
      /\b([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?:\s?([aApP]\.?[mM]\.?))?(?=\W|$)/g,
      (_, h: string, m: string, sec?: string, suffix?: string) => timeWords(+h, +m, suffix, sec ? +sec : undefined),
    )
    .replace(/\b(\d+)(st|nd|rd|th)\b/gi, (_, n: string) => ordinalNumberWords(n))
    .replace(new RegExp(`\\b(${NUMBER})\\s?[-–]\\s?(${NUMBER})\\b`, 'g'), (_, a: string, b: string) => `${a} to ${b}`)
    .replace(new RegExp(`(${NUMBER})\\s?(km/h|°[cCfF]|[a-zA-Z]{1,3})\\b`, 'g'), (whole, n: string, unit: string) => {
      const names = UNITS[unit.toLowerCase()];
      if (!names || (unit === 'm' && !/^\d/.test(n))) return whole;
      return `${n} ${Number(n.replace(/,/g, '')) === 1 ? names[0] : names[1]}`;
    })
    .replace(
      new RegExp(`(^|[^\\w.,])(-?)(${NUMBER})(?![\\w.,]*\\d)(?![A-Za-z])`, 'g'),
      (_, before: string, sign: string, n: string) => {
        const words = !sign && looksLikeYear(n) ? yearWords(Number(n)) : numberWords(n);
        return `${before}${sign ? 'minus ' : ''}${words}`;
      },
    )
    .replace(/\s&\s/g, ' and ')
    // "$5/month", "3 kg/day": a slash after an amount is "per".
    .replace(
      /\b(dollars?|euros?|pounds?|cents?|pence|yen|rupees?|percent|[a-z]+s)\s?\/\s?(month|year|week|day|hour|minute|second|person|user|night|kilogram|mile|kilometer|liter)\b/g,
      '$1 per $2',
    );
  return out;
}

function scaleWord(scale: string | undefined): string | undefined {
  if (!scale) return undefined;
  const lower = scale.toLowerCase();
  if (lower === 'k') return 'thousand';
  if (lower === 'm') return 'million';
  if (lower === 'b' || lower === 'bn') return 'billion';
  return lower;
}
