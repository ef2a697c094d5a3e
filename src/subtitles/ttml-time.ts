/**
 * TTML time expressions, read and written the way each was written: clock times (`00:00:01.500`, or with
 * frames `00:00:01:12`) and offset times (`1.5s`, `1500ms`, `0.025m`, `36f`, `15000000t`), counted in the
 * document's frame and tick rates.
 */
import { writeClock } from './clock-stamp';
import type { TimeBase } from './scanned-cue';

const CLOCK = /^(\d{2,}):(\d{2}):(\d{2})(?:(\.\d+)|:(\d{2,})(?:\.(\d+))?)?$/;
const OFFSET = /^(\d+(?:\.\d+)?)(h|ms|m|s|f|t)$/;
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** The time in milliseconds (fractions kept), or undefined when it is not a TTML time expression. */
export function readTtmlTime(text: string, base: TimeBase): number | undefined {
  const value = text.trim();
  const clock = CLOCK.exec(value);
  if (clock) {
    const whole = Number(clock[1]) * 3_600_000 + Number(clock[2]) * 60_000 + Number(clock[3]) * 1000;
    if (clock[4]) return whole + Number(`0${clock[4]}`) * 1000;
    if (clock[5])
      return whole + ((Number(clock[5]) + (clock[6] ? Number(`0.${clock[6]}`) : 0)) / base.frameRate) * 1000;
    return whole;
  }
  const offset = OFFSET.exec(value);
  if (!offset) return undefined;
  const amount = Number(offset[1]);
  if (offset[2] === 'f') return (amount / base.frameRate) * 1000;
  if (offset[2] === 't') return (amount / base.tickRate) * 1000;
  return amount * UNIT_MS[offset[2]];
}

/** `totalMs` written in the form of `like`: clock (with its fraction digits or frames) or offset (its unit). */
export function writeTtmlTime(totalMs: number, like: string, base: TimeBase): string {
  const value = like.trim();
  const clock = CLOCK.exec(value);
  if (clock?.[5] !== undefined) {
    let seconds = Math.floor(totalMs / 1000 + 1e-9);
    let frames = Math.round((totalMs / 1000 - seconds) * base.frameRate);
    if (frames >= Math.ceil(base.frameRate)) [seconds, frames] = [seconds + 1, 0];
    const head = writeClock(seconds * 1000, `${clock[1]}:${clock[2]}:${clock[3]}`, 0, 2);
    return `${head}:${String(frames).padStart(clock[5].length, '0')}`;
  }
  if (clock) return writeClock(totalMs, value, 3, 2);
  const offset = OFFSET.exec(value);
  const unit = offset?.[2] ?? 's';
  const decimals = offset?.[1].split('.')[1]?.length ?? 0;
  const amount =
    unit === 'f'
      ? (totalMs / 1000) * base.frameRate
      : unit === 't'
        ? (totalMs / 1000) * base.tickRate
        : totalMs / UNIT_MS[unit];
  if (unit === 'f' || unit === 't') return `${Math.round(amount)}${unit}`;
  // As few decimals as the original had, more only when the time needs them (at most to the millisecond).
  const needed = Math.max(decimals, 0);
  for (let digits = needed; digits <= 6; digits++) {
    const written = amount.toFixed(digits);
    if (Math.abs(Number(written) * UNIT_MS[unit] - totalMs) < 0.5) return `${written}${unit}`;
  }
  return `${amount.toFixed(6)}${unit}`;
}
