/**
 * The attribute values of SSML that carry numbers: break times and strengths, prosody rate, pitch and
 * volume. Each parser returns undefined for a value it cannot read, so the reader can name the attribute.
 */

/** Seconds of silence a break strength stands for (between what voices use after a comma and a paragraph). */
export const BREAK_STRENGTH_SECONDS: Record<string, number> = {
  none: 0,
  'x-weak': 0.1,
  weak: 0.25,
  medium: 0.4,
  strong: 0.75,
  'x-strong': 1.2,
};

/** The longest break taken, so one attribute cannot ask for hours of silence. */
export const MAX_BREAK_SECONDS = 30;

/**
 * The most silence all the breaks of one document may add up to, so a few kilobytes of `<break time="30s"/>`
 * cannot ask for hours of audio (120 of them made an hour, 173 MB, in two seconds).
 */
export const MAX_TOTAL_BREAK_SECONDS = 600;

/** `500ms`, `1.5s` → seconds. */
export function parseTime(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s)\s*$/i.exec(value);
  if (!match) return undefined;
  const amount = Number(match[1]);
  return match[2].toLowerCase() === 'ms' ? amount / 1000 : amount;
}

const RATE_WORDS: Record<string, number> = {
  'x-slow': 0.5,
  slow: 0.75,
  medium: 1,
  default: 1,
  fast: 1.25,
  'x-fast': 1.75,
};

/** `slow`, `80%`, `+10%`, `1.2` → a factor of the current rate. */
export function parseRate(value: string): number | undefined {
  const word = RATE_WORDS[value.trim().toLowerCase()];
  if (word !== undefined) return word;
  const relative = /^\s*([+-])(\d+(?:\.\d+)?)%\s*$/.exec(value);
  if (relative) return 1 + ((relative[1] === '-' ? -1 : 1) * Number(relative[2])) / 100;
  const percent = /^\s*(\d+(?:\.\d+)?)%\s*$/.exec(value);
  if (percent) return Number(percent[1]) / 100;
  const factor = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  if (factor) return Number(factor[1]);
  return undefined;
}

const PITCH_WORDS: Record<string, number> = {
  'x-low': 0.7,
  low: 0.85,
  medium: 1,
  default: 1,
  high: 1.15,
  'x-high': 1.3,
};

/** `high`, `+10%`, `-2st` → a factor of the current pitch (absolute Hz values are not taken: undefined). */
export function parsePitch(value: string): number | undefined {
  const word = PITCH_WORDS[value.trim().toLowerCase()];
  if (word !== undefined) return word;
  const percent = /^\s*([+-]?)(\d+(?:\.\d+)?)%\s*$/.exec(value);
  if (percent) return 1 + ((percent[1] === '-' ? -1 : 1) * Number(percent[2])) / 100;
  const semitones = /^\s*([+-]?)(\d+(?:\.\d+)?)st\s*$/.exec(value);
  if (semitones) return 2 ** (((semitones[1] === '-' ? -1 : 1) * Number(semitones[2])) / 12);
  return undefined;
}

const VOLUME_WORDS: Record<string, number> = {
  silent: -Infinity,
  'x-soft': -12,
  soft: -6,
  medium: 0,
  default: 0,
  loud: 6,
  'x-loud': 12,
};

/** `loud`, `+6dB`, `-3dB` → decibels to add. */
export function parseVolume(value: string): number | undefined {
  const word = VOLUME_WORDS[value.trim().toLowerCase()];
  if (word !== undefined) return word;
  const decibels = /^\s*([+-]?)(\d+(?:\.\d+)?)\s*dB\s*$/i.exec(value);
  if (decibels) return (decibels[1] === '-' ? -1 : 1) * Number(decibels[2]);
  return undefined;
}
