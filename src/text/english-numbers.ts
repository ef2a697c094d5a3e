/**
 * English number words: cardinals, ordinals, years, decimals and money, as a listener expects them read.
 *
 * @example cardinalWords(1234) // 'one thousand two hundred thirty-four'
 */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];
const ORDINAL_EXCEPTIONS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

function belowThousand(n: number): string {
  const words: string[] = [];
  if (n >= 100) {
    words.push(`${ONES[Math.floor(n / 100)]} hundred`);
    n %= 100;
  }
  if (n >= 20) words.push(n % 10 ? `${TENS[Math.floor(n / 10)]}-${ONES[n % 10]}` : TENS[Math.floor(n / 10)]);
  else if (n > 0) words.push(ONES[n]);
  return words.join(' ');
}

/** Words for a whole number up to 999 trillion; larger numbers are read digit by digit. */
export function cardinalWords(n: number): string {
  if (!Number.isInteger(n)) throw new TypeError(`Expected an integer, got ${n}`);
  if (n < 0) return `minus ${cardinalWords(-n)}`;
  if (n < 20) return ONES[n];
  if (n >= 1e15) return digitWords(String(n));
  const groups: string[] = [];
  for (let scale = 0; n > 0; scale++, n = Math.floor(n / 1000)) {
    const group = n % 1000;
    if (group > 0) groups.unshift(SCALES[scale] ? `${belowThousand(group)} ${SCALES[scale]}` : belowThousand(group));
  }
  return groups.join(' ');
}

/** The most digits read as one number; a longer run (beyond a Number's exact integers) is read digit by digit. */
const MAX_NUMBER_DIGITS = 15;

/**
 * Words for a whole number written in digits: as a number up to 15 digits, digit by digit beyond (`Number` of
 * 80 digits is not exact, and of 310 digits is Infinity).
 */
export function wholeNumberWords(digits: string): string {
  if (/^[-+]/.test(digits)) return `${digits[0] === '-' ? 'minus ' : ''}${wholeNumberWords(digits.slice(1))}`;
  const plain = digits.replace(/^0+(?=\d)/, '');
  return plain.length > MAX_NUMBER_DIGITS ? digitWords(plain) : cardinalWords(Number(plain));
}

/** `21` → `twenty-first` for a number written in digits; past 15 digits, the digits one by one. */
export function ordinalNumberWords(digits: string): string {
  const plain = digits.replace(/^0+(?=\d)/, '');
  return plain.length > MAX_NUMBER_DIGITS ? digitWords(plain) : ordinalWords(Number(plain));
}

/** `21` → `twenty-first`. */
export function ordinalWords(n: number): string {
  const words = cardinalWords(n);
  return words.replace(/([a-z]+)$/, (last) => {
    if (ORDINAL_EXCEPTIONS[last]) return ORDINAL_EXCEPTIONS[last];
    if (last.endsWith('y')) return `${last.slice(0, -1)}ieth`;
    return `${last}th`;
  });
}

/** Each digit as a word: `407` → `four zero seven`. */
export function digitWords(digits: string): string {
  return [...digits]
    .filter((c) => c >= '0' && c <= '9')
    .map((c) => ONES[Number(c)])
    .join(' ');
}

/** How a year is said: 1999 → nineteen ninety-nine, 2005 → two thousand five, 2024 → twenty twenty-four. */
export function yearWords(year: number): string {
  if (year < 1000 || year > 9999 || (year >= 2000 && year < 2010)) return cardinalWords(year);
  const high = Math.floor(year / 100);
  const low = year % 100;
  if (low === 0) return `${cardinalWords(high)} hundred`;
  return `${cardinalWords(high)} ${low < 10 ? `oh ${ONES[low]}` : cardinalWords(low)}`;
}

/** A decimal written with digits (commas allowed in the integer part): `1,234.05` → `one thousand two hundred thirty-four point zero five`. */
export function decimalWords(text: string): string {
  const negative = text.startsWith('-');
  const [whole, fraction] = text.replace(/^[-+]/, '').replace(/,/g, '').split('.');
  let words = whole === '' ? 'zero' : wholeNumberWords(whole);
  if (fraction) words += ` point ${digitWords(fraction)}`;
  return negative ? `minus ${words}` : words;
}

const CURRENCIES: Record<string, { one: string; many: string; centOne: string; centMany: string }> = {
  $: { one: 'dollar', many: 'dollars', centOne: 'cent', centMany: 'cents' },
  '€': { one: 'euro', many: 'euros', centOne: 'cent', centMany: 'cents' },
  '£': { one: 'pound', many: 'pounds', centOne: 'penny', centMany: 'pence' },
  '¥': { one: 'yen', many: 'yen', centOne: 'sen', centMany: 'sen' },
  '₹': { one: 'rupee', many: 'rupees', centOne: 'paisa', centMany: 'paise' },
};

export const CURRENCY_SYMBOLS = Object.keys(CURRENCIES);

/** `$`, `1,234.50`, optional scale word → `one thousand two hundred thirty-four dollars and fifty cents`. */
export function moneyWords(symbol: string, amount: string, scale?: string): string {
  const currency = CURRENCIES[symbol];
  if (!currency) throw new TypeError(`Expected a currency symbol, got ${symbol}`);
  const clean = amount.replace(/,/g, '');
  if (scale) return `${decimalWords(clean)} ${scale} ${currency.many}`;
  const [whole, fraction = ''] = clean.split('.');
  const units = Number(whole || '0');
  const cents = fraction.length === 2 ? Number(fraction) : 0;
  if (fraction && fraction.length !== 2) return `${decimalWords(clean)} ${currency.many}`;
  const main = `${wholeNumberWords(whole || '0')} ${units === 1 ? currency.one : currency.many}`;
  if (!cents) return main;
  const minor = `${cardinalWords(cents)} ${cents === 1 ? currency.centOne : currency.centMany}`;
  return units === 0 ? minor : `${main} and ${minor}`;
}
