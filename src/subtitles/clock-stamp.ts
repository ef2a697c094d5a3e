/**
 * Reads and writes `H:MM:SS.fff`-style clock times (ASS/SSA, SBV, TTML clock times) keeping the way a stamp
 * was written: its hour digits and how many fraction digits it had, so an unedited stamp writes back the
 * same and an edited one looks like its neighbours.
 */
const CLOCK = /^(\d+):(\d{1,2}):(\d{1,2})(?:\.(\d+))?$/;

/** Milliseconds of `H:MM:SS(.f…)`, or undefined when it is not one. */
export function readClock(text: string): number | undefined {
  const match = CLOCK.exec(text.trim());
  if (!match || Number(match[2]) > 59 || Number(match[3]) > 59) return undefined;
  const fraction = match[4] ? Number(`0.${match[4]}`) : 0;
  return (
    Number(match[1]) * 3_600_000 + Number(match[2]) * 60_000 + Number(match[3]) * 1000 + Math.round(fraction * 1000)
  );
}

/**
 * `totalMs` written like `like` (its hour width and fraction digits; `fallbackDigits` when it had none and
 * the time needs some), rounded to the precision written.
 * @example writeClock(61_500, '0:00:00.00', 2) === '0:01:01.50'
 */
export function writeClock(totalMs: number, like: string, fallbackDigits: number, fallbackHourWidth = 1): string {
  const match = CLOCK.exec(like.trim());
  const hourWidth = match ? match[1].length : fallbackHourWidth;
  const minuteWidth = match ? match[2].length : 2;
  const secondWidth = match ? match[3].length : 2;
  let digits = match ? (match[4]?.length ?? 0) : fallbackDigits;
  if (digits === 0 && totalMs % 1000 !== 0) digits = fallbackDigits;
  const unit = 10 ** (3 - Math.min(digits, 3));
  const rounded = Math.max(0, Math.round(totalMs / unit) * unit);
  const hours = Math.floor(rounded / 3_600_000);
  const minutes = Math.floor(rounded / 60_000) % 60;
  const seconds = Math.floor(rounded / 1000) % 60;
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  const fraction =
    digits === 0
      ? ''
      : `.${pad(rounded % 1000, 3)
          .slice(0, Math.min(digits, 3))
          .padEnd(digits, '0')}`;
  return `${pad(hours, hourWidth)}:${pad(minutes, minuteWidth)}:${pad(seconds, secondWidth)}${fraction}`;
}
