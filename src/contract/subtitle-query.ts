/**
 * The subtitle-style query parameters of `GET /jobs/{id}/transcript` (format srt or vtt): their OpenAPI
 * schemas, made from the style's own ranges and presets (src/subtitles/style.ts), and the style a checked
 * query asks for.
 */
import {
  resolveStyle,
  STYLE_PRESETS,
  STYLE_RANGES,
  StyleError,
  type StyleField,
  type SubtitleStyle,
} from './subtitle-style';

/** The response header that lists the cues (from 1) holding a word longer than a line: the one allowed excess. */
export const LONG_WORD_CUES_HEADER = 'Subtitle-Long-Word-Cues';

/** The query's names for the style's fields (the minimum gap is not a parameter: it follows the preset). */
const PARAMETER_FIELDS = {
  maxLineChars: 'maxLineChars',
  maxLines: 'maxLines',
  maxCharsPerSecond: 'maxCharsPerSecond',
  minDurationSeconds: 'minDurationSeconds',
  maxDurationSeconds: 'maxDurationSeconds',
} as const satisfies Record<string, StyleField>;

type StyleParameter = keyof typeof PARAMETER_FIELDS;

export interface SubtitleQuery {
  style?: string;
  maxLineChars?: number;
  maxLines?: number;
  maxCharsPerSecond?: number;
  minDurationSeconds?: number;
  maxDurationSeconds?: number;
}

function parameter(name: StyleParameter, description: string) {
  const range = STYLE_RANGES[PARAMETER_FIELDS[name]];
  return {
    name,
    in: 'query',
    description,
    schema: { type: range.integer ? 'integer' : 'number', minimum: range.min, maximum: range.max },
  } as const;
}

export const SUBTITLE_QUERY_PARAMETERS = [
  {
    name: 'style',
    in: 'query',
    description: 'srt and vtt: the preset whose values the other style parameters change (default: `default`).',
    schema: { type: 'string', enum: Object.keys(STYLE_PRESETS) },
  },
  parameter('maxLineChars', 'srt and vtt: characters per line at most.'),
  parameter('maxLines', 'srt and vtt: lines per cue at most.'),
  parameter(
    'maxCharsPerSecond',
    'srt and vtt: reading speed; a cue stays up until it can be read at this speed, where the next cue leaves room.',
  ),
  parameter('minDurationSeconds', 'srt and vtt: the shortest a cue is shown, where the next cue leaves room.'),
  parameter('maxDurationSeconds', 'srt and vtt: the longest a cue is shown.'),
] as const;

export type SubtitleStyleChoice = { ok: true; style: SubtitleStyle } | { ok: false; message: string };

/**
 * The style a validated query asks for: its preset with its values. Style parameters on a format other
 * than srt or vtt, and a minimum duration above the maximum, are refused with a message naming the
 * parameter.
 */
export function subtitleStyleOf(query: SubtitleQuery & { format: string }): SubtitleStyleChoice {
  const given = (['style', ...Object.keys(PARAMETER_FIELDS)] as Array<keyof SubtitleQuery>).filter(
    (name) => query[name] !== undefined,
  );
  if (given.length > 0 && query.format !== 'srt' && query.format !== 'vtt') {
    return { ok: false, message: `${given[0]}: applies only to format srt or vtt` };
  }
  const overrides: Partial<SubtitleStyle> = {};
  for (const name of Object.keys(PARAMETER_FIELDS) as StyleParameter[]) {
    const value = query[name];
    if (value !== undefined) overrides[PARAMETER_FIELDS[name]] = value;
  }
  try {
    return { ok: true, style: resolveStyle(query.style, overrides) };
  } catch (error) {
    if (error instanceof StyleError) return { ok: false, message: error.message };
    throw error;
  }
}
