/**
 * What Save Narration As… writes for a file name: the format its extension asks for (the engine encodes
 * it), and the name it suggests, cut at a word boundary. No editor in here, so it is unit-tested alone.
 */
import path from 'node:path';
import type { OutputFormat } from '../contract/openapi';
import type { ExtraOutputFormat } from '../engine-api/protocol';

export interface NarrationFormat {
  outputFormat: OutputFormat;
  /** A format the engine encodes instead of `outputFormat`. */
  encodeAs?: ExtraOutputFormat;
  label: string;
}

const FORMATS: Readonly<Record<string, NarrationFormat>> = {
  wav: { outputFormat: 'wav', label: 'WAV' },
  mp3: { outputFormat: 'mp3', label: 'MP3' },
  flac: { outputFormat: 'flac', label: 'FLAC' },
  aac: { outputFormat: 'aac', label: 'AAC' },
  m4a: { outputFormat: 'wav', encodeAs: 'm4a', label: 'M4A (AAC)' },
  ogg: { outputFormat: 'wav', encodeAs: 'opus', label: 'Ogg Opus' },
  opus: { outputFormat: 'wav', encodeAs: 'opus', label: 'Ogg Opus' },
};

/** The extensions Save Narration As… writes, for the save dialog's filter. */
export const NARRATION_EXTENSIONS: readonly string[] = Object.keys(FORMATS);

/** The format `file`'s extension asks for; undefined for an extension Speech Studio does not write. */
export function narrationFormatFor(file: string): NarrationFormat | undefined {
  return FORMATS[path.extname(file).slice(1).toLowerCase()];
}

/** True when a job with these options already wrote the asked format (a copy suffices). */
export function sameFormat(
  format: NarrationFormat,
  job: { outputFormat: OutputFormat; encodeAs?: ExtraOutputFormat },
): boolean {
  return format.outputFormat === job.outputFormat && format.encodeAs === job.encodeAs;
}

/**
 * A file name (without extension) from the narration's text: its first words up to `max` characters, never
 * a word cut in two, without characters file systems refuse.
 *
 * @example suggestedNarrationName('It was a bright cold day in April, and the clocks') === 'It was a bright cold day in April and'
 */
export function suggestedNarrationName(text: string, max = 40): string {
  const words = text
    .replace(/[^\p{L}\p{N}'’ _-]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  let name = '';
  for (const word of words) {
    const next = name ? `${name} ${word}` : word;
    if ([...next].length > max) break;
    name = next;
  }
  // A first word longer than the limit is cut: better than no name at all.
  return name || [...(words[0] ?? '')].slice(0, max).join('') || 'narration';
}
