/**
 * Subtitle rules as data: a style (line length, lines, reading speed, cue duration, gap between cues), the
 * named presets of common broadcaster guidelines, and the ranges a caller may ask for. Cues are laid out
 * with a style (src/subtitles/cues.ts) and existing files are checked against one (check.ts).
 */

export interface SubtitleStyle {
  /** Characters per line, spaces and punctuation included. */
  maxLineChars: number;
  maxLines: number;
  /** Reading speed: characters of the cue (lines joined, without the line break) per second on screen. */
  maxCharsPerSecond: number;
  minDurationSeconds: number;
  maxDurationSeconds: number;
  /** The least time between one cue's end and the next one's start. */
  minGapSeconds: number;
  /** How different a frame must be from the one before to count as a shot change: ffmpeg's scene score, 0–1. */
  shotChangeThreshold: number;
  /**
   * Frames around a shot change in which no cue may start or end unless it is on the change (Netflix: "half a
   * second", 12 frames at 24 fps); counted in the video's own frames.
   */
  shotChangeFrames: number;
}

export interface StylePreset {
  label: string;
  /** The guideline the values come from (docs/local-api.md's "Subtitle styles" names the documents). */
  source: string;
  style: SubtitleStyle;
}

/** Two frames at 25 fps. */
const TWO_FRAMES_25 = 0.08;
/** Netflix: "2 frames minimum (regardless of frame rate)"; at 24 fps that is 1/12 s. */
const TWO_FRAMES_24 = 0.083;
/** Netflix: 5/6 of a second, 20 frames at 24 fps. */
const FIVE_SIXTHS = 0.833;
/** ffmpeg's documented example for picking scene changes (`select='gt(scene,0.4)'`). */
const SCENE_SCORE = 0.4;
/** Netflix's subtitle timing guidelines: "half a second", 12 frames at 24 fps. */
const HALF_SECOND_FRAMES = 12;
const SHOT_CHANGES = { shotChangeThreshold: SCENE_SCORE, shotChangeFrames: HALF_SECOND_FRAMES } as const;

export const DEFAULT_SUBTITLE_STYLE: SubtitleStyle = Object.freeze({
  maxLineChars: 42,
  maxLines: 2,
  maxCharsPerSecond: 17,
  minDurationSeconds: 0.83,
  maxDurationSeconds: 7,
  minGapSeconds: TWO_FRAMES_25,
  ...SHOT_CHANGES,
});

export const STYLE_PRESETS: Readonly<Record<string, StylePreset>> = Object.freeze({
  default: {
    label: 'Speech Studio default',
    source: 'Netflix English template values, gap of 2 frames at 25 fps',
    style: DEFAULT_SUBTITLE_STYLE,
  },
  'netflix-en': {
    label: 'Netflix English (USA), adult programs',
    source: 'Netflix Timed Text Style Guide: General Requirements and English (USA)',
    style: {
      maxLineChars: 42,
      maxLines: 2,
      maxCharsPerSecond: 20,
      minDurationSeconds: FIVE_SIXTHS,
      maxDurationSeconds: 7,
      minGapSeconds: TWO_FRAMES_24,
      ...SHOT_CHANGES,
    },
  },
  'netflix-en-children': {
    label: "Netflix English (USA), children's programs",
    source: "Netflix Timed Text Style Guide: English (USA), children's reading speed",
    style: {
      maxLineChars: 42,
      maxLines: 2,
      maxCharsPerSecond: 17,
      minDurationSeconds: FIVE_SIXTHS,
      maxDurationSeconds: 7,
      minGapSeconds: TWO_FRAMES_24,
      ...SHOT_CHANGES,
    },
  },
  'netflix-template': {
    label: 'Netflix English template (for translation)',
    source: 'Netflix English Template Timed Text Style Guide: 17 characters per second for adult programs',
    style: {
      maxLineChars: 42,
      maxLines: 2,
      maxCharsPerSecond: 17,
      minDurationSeconds: FIVE_SIXTHS,
      maxDurationSeconds: 7,
      minGapSeconds: TWO_FRAMES_24,
      ...SHOT_CHANGES,
    },
  },
  bbc: {
    label: 'BBC',
    source: 'BBC Subtitle Guidelines: 37 characters (68 % of a 16:9 picture), 2 lines, 160–180 words per minute',
    style: {
      maxLineChars: 37,
      maxLines: 2,
      maxCharsPerSecond: 15,
      minDurationSeconds: 1,
      maxDurationSeconds: 7,
      minGapSeconds: TWO_FRAMES_25,
      ...SHOT_CHANGES,
    },
  },
});

export type StyleField = keyof SubtitleStyle;

/** The values a caller may set, inclusive; integers where the field counts something. */
export const STYLE_RANGES: Readonly<Record<StyleField, { min: number; max: number; integer: boolean }>> = Object.freeze(
  {
    maxLineChars: { min: 10, max: 200, integer: true },
    maxLines: { min: 1, max: 5, integer: true },
    maxCharsPerSecond: { min: 5, max: 60, integer: false },
    minDurationSeconds: { min: 0, max: 10, integer: false },
    maxDurationSeconds: { min: 0.5, max: 60, integer: false },
    minGapSeconds: { min: 0, max: 2, integer: false },
    shotChangeThreshold: { min: 0.05, max: 1, integer: false },
    shotChangeFrames: { min: 0, max: 60, integer: true },
  },
);

/** A style field out of its range, or a pair that contradicts itself; `field` names what to fix. */
export class StyleError extends Error {
  constructor(
    readonly field: StyleField | 'style',
    message: string,
  ) {
    super(message);
    this.name = 'StyleError';
  }
}

/**
 * A preset (default: `default`) with some of its values replaced, checked against STYLE_RANGES and for
 * a minimum duration above the maximum. Throws a StyleError naming the field.
 * @example resolveStyle('bbc', { maxLines: 1 }) // BBC's values, one line a cue
 */
export function resolveStyle(preset = 'default', overrides: Partial<SubtitleStyle> = {}): SubtitleStyle {
  const base = Object.hasOwn(STYLE_PRESETS, preset) ? STYLE_PRESETS[preset] : undefined;
  if (!base) throw new StyleError('style', `style: must be one of ${Object.keys(STYLE_PRESETS).join(', ')}`);
  const style: SubtitleStyle = { ...base.style };
  for (const field of Object.keys(overrides) as StyleField[]) {
    const value = overrides[field];
    if (value === undefined) continue;
    const range = STYLE_RANGES[field];
    if (!range) throw new StyleError('style', `${String(field)}: is not a subtitle style field`);
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < range.min ||
      value > range.max ||
      (range.integer && !Number.isInteger(value))
    ) {
      throw new StyleError(
        field,
        `${field}: must be ${range.integer ? 'an integer' : 'a number'} from ${range.min} to ${range.max}`,
      );
    }
    style[field] = value;
  }
  if (style.minDurationSeconds > style.maxDurationSeconds) {
    const field = overrides.minDurationSeconds !== undefined ? 'minDurationSeconds' : 'maxDurationSeconds';
    throw new StyleError(
      field,
      `${field}: the minimum duration (${style.minDurationSeconds} s) must not exceed the maximum (${style.maxDurationSeconds} s)`,
    );
  }
  return style;
}
