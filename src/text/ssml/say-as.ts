/**
 * What `<say-as interpret-as=…>` turns its text into before a voice reads it: letters one by one, numbers,
 * ordinals, dates, times and telephone numbers as words. English is expanded here; for other languages the
 * text is only shaped so the voice's own reading of digits is right (letters spaced, digits grouped).
 */
import {
  cardinalWords,
  decimalWords,
  digitWords,
  ordinalNumberWords,
  ordinalWords,
  wholeNumberWords,
  yearWords,
} from '../english-numbers';

export const SAY_AS_KINDS = ['characters', 'spell-out', 'cardinal', 'ordinal', 'date', 'time', 'telephone'] as const;
export type SayAsKind = (typeof SAY_AS_KINDS)[number];

/** The problem with a say-as text, for the reader to report with the element's position. */
export class SayAsError extends Error {
  override readonly name = 'SayAsError';
}

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

const isEnglish = (language: string): boolean => /^en(-|$)/i.test(language) || language.toLowerCase() === 'auto';

/**
 * The words for `text` read as `kind`; `format` is say-as's format attribute (dates: `mdy`, `dmy`, `ymd`,
 * `md`, `dm`, `ym`, `my`, `y`; times: `hms12`, `hms24`).
 * @example sayAs('3', 'ordinal', undefined, 'en') === 'third'
 */
export function sayAs(text: string, kind: SayAsKind, format: string | undefined, language: string): string {
  const value = text.trim();
  switch (kind) {
    case 'characters':
    case 'spell-out':
      return [...value].filter((c) => c.trim() !== '').join(' ');
    case 'cardinal':
      return cardinal(value, language);
    case 'ordinal':
      return ordinal(value, language);
    case 'date':
      return date(value, format, language);
    case 'time':
      return time(value, format, language);
    case 'telephone':
      return telephone(value, language);
  }
}

function cardinal(value: string, language: string): string {
  const plain = value.replace(/[,\s_]/g, '');
  if (!/^[-+]?\d+(\.\d+)?$/.test(plain)) throw new SayAsError(`cardinal: ${JSON.stringify(value)} is not a number`);
  if (!isEnglish(language)) return plain;
  return plain.includes('.') ? decimalWords(plain) : wholeNumberWords(plain);
}

function ordinal(value: string, language: string): string {
  const digits = value.replace(/(st|nd|rd|th|\.)$/i, '').replace(/[,\s]/g, '');
  if (!/^\d+$/.test(digits)) throw new SayAsError(`ordinal: ${JSON.stringify(value)} is not a whole number`);
  if (!isEnglish(language)) return `${digits}.`;
  return ordinalNumberWords(digits);
}

/** The parts of a date in the order `format` names them; ISO dates (2024-03-15) need no format. */
function date(value: string, format: string | undefined, language: string): string {
  const parts = value.split(/[-/.\s]+/).filter(Boolean);
  const order = (
    format ?? (/^\d{4}-/.test(value) ? 'ymd' : parts.length === 3 ? 'mdy' : parts.length === 1 ? 'y' : 'md')
  ).toLowerCase();
  if (!/^(mdy|dmy|ymd|md|dm|ym|my|y|m|d)$/.test(order))
    throw new SayAsError(`date: format ${JSON.stringify(format)} is not one of mdy, dmy, ymd, md, dm, ym, my, y`);
  if (parts.length !== order.length)
    throw new SayAsError(
      `date: ${JSON.stringify(value)} does not have the ${order.length} parts its format ${order} names`,
    );
  const field = (letter: string): number | undefined => {
    const index = order.indexOf(letter);
    if (index < 0) return undefined;
    const raw = parts[index];
    if (letter === 'm' && !/^\d+$/.test(raw)) {
      const named = MONTHS.findIndex((month) => month.toLowerCase().startsWith(raw.toLowerCase().slice(0, 3)));
      if (named >= 0) return named + 1;
    }
    if (!/^\d+$/.test(raw))
      throw new SayAsError(`date: ${JSON.stringify(raw)} in ${JSON.stringify(value)} is not a number`);
    return Number(raw);
  };
  const [year, month, day] = [field('y'), field('m'), field('d')];
  if (month !== undefined && (month < 1 || month > 12))
    throw new SayAsError(`date: month ${month} in ${JSON.stringify(value)} is not 1 to 12`);
  if (day !== undefined && (day < 1 || day > 31))
    throw new SayAsError(`date: day ${day} in ${JSON.stringify(value)} is not 1 to 31`);
  if (!isEnglish(language)) return [day, month, year].filter((part) => part !== undefined).join('.');
  const words: string[] = [];
  if (month !== undefined) words.push(MONTHS[month - 1]);
  if (day !== undefined) words.push(ordinalWords(day));
  const monthDay = words.join(' ');
  if (year === undefined) return monthDay;
  return monthDay ? `${monthDay}, ${yearWords(year)}` : yearWords(year);
}

function time(value: string, format: string | undefined, language: string): string {
  const match = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(value);
  if (!match) throw new SayAsError(`time: ${JSON.stringify(value)} is not a time like 14:30 or 2:30 pm`);
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
  const suffix = match[4]?.replace(/\./g, '').toLowerCase();
  if (hours > (suffix ? 12 : 23) || minutes > 59 || seconds > 59)
    throw new SayAsError(`time: ${JSON.stringify(value)} is not a time of day`);
  if (!isEnglish(language)) return `${hours}:${String(minutes).padStart(2, '0')}`;
  const twelveHour = suffix !== undefined || format?.toLowerCase() === 'hms12';
  const minuteWords =
    minutes === 0 ? '' : minutes < 10 ? ` oh ${cardinalWords(minutes)}` : ` ${cardinalWords(minutes)}`;
  const secondWords = seconds ? ` and ${cardinalWords(seconds)} seconds` : '';
  if (twelveHour) {
    const ampm = suffix ?? (hours < 12 ? 'am' : 'pm');
    const shown = hours % 12 === 0 ? 12 : hours % 12;
    return `${cardinalWords(shown)}${minutes === 0 ? " o'clock" : minuteWords}${secondWords} ${ampm === 'am' ? 'A M' : 'P M'}`;
  }
  if (minutes === 0) return `${cardinalWords(hours)} hundred${secondWords}`;
  return `${hours < 10 ? 'oh ' : ''}${cardinalWords(hours)}${minuteWords}${secondWords}`;
}

/** Digit by digit, a short pause between groups: `+1 555-0123` → `plus one, five five five, zero one two three`. */
function telephone(value: string, language: string): string {
  if (!/^\+?[\d\s().-]+$/.test(value) || !/\d/.test(value))
    throw new SayAsError(`telephone: ${JSON.stringify(value)} is not a telephone number`);
  const groups = value
    .replace(/^\+/, '')
    .split(/[\s().-]+/)
    .filter(Boolean);
  const spoken = groups.map((group) => (isEnglish(language) ? digitWords(group) : [...group].join(' ')));
  return `${value.startsWith('+') ? (isEnglish(language) ? 'plus ' : '+') : ''}${spoken.join(', ')}`;
}
