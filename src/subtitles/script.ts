/**
 * What an aligner aligns: the units of a script (plain text: one a line; Markdown: one a paragraph, its
 * markup dropped) or the cues of a subtitle file (SRT, WebVTT, ASS/SSA, TTML/DFXP, SBV: text kept as the
 * file has it, times to be redone).
 */
import { withoutClosingHashes } from '../text/markdown';
import { parseSubtitles } from './parse';

export const SCRIPT_FORMATS = ['txt', 'md', 'srt', 'vtt', 'ass', 'ssa', 'ttml', 'sbv'] as const;
export type ScriptFormat = (typeof SCRIPT_FORMATS)[number];

/** The most bytes of script the aligner takes (the API's limit on the `script` part). */
export const MAX_SCRIPT_BYTES = 5 * 1024 * 1024;

export interface ScriptUnit {
  /** Position among the units, from 1 (the cue number of a subtitle file: its place in the file). */
  index: number;
  /** The text shown, as written (a subtitle cue's lines joined by a newline). */
  text: string;
  /** The text spoken: what the synthesizer reads and the aligner matches. */
  spoken: string;
  /** The cue's old times, for a subtitle file. */
  start?: number;
  end?: number;
  speaker?: string;
}

/** The script format a file name says, or undefined. */
export function scriptFormatOf(fileName: string): ScriptFormat | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === 'markdown') return 'md';
  if (extension === 'text') return 'txt';
  if (extension === 'dfxp') return 'ttml';
  return SCRIPT_FORMATS.find((format) => format === extension);
}

/** The units of a script; those with nothing to say are left out (their number is kept by the others). */
export function readScript(source: string, format: ScriptFormat): ScriptUnit[] {
  const text = source.replace(/^\uFEFF/, '');
  if (format !== 'txt' && format !== 'md') {
    return parseSubtitles(text, format)
      .map((cue) => ({
        index: cue.index,
        text: cue.text,
        spoken: cue.text,
        start: cue.start,
        end: cue.end,
        ...(cue.speaker ? { speaker: cue.speaker } : {}),
      }))
      .filter((unit) => /[\p{L}\p{N}]/u.test(unit.spoken));
  }
  const pieces = format === 'md' ? markdownParagraphs(text) : text.split(/\r\n|\r|\n/);
  return pieces
    .map((piece) => piece.replace(/\s+/g, ' ').trim())
    .map((line, i) => ({ index: i + 1, text: line, spoken: line }))
    .filter((unit) => /[\p{L}\p{N}]/u.test(unit.spoken))
    .map((unit, i) => ({ ...unit, index: i + 1 }));
}

/** Markdown's paragraphs, headings and list items as plain text: code, images, link targets and markup go. */
function markdownParagraphs(source: string): string[] {
  const withoutCode = source.replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, '').replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  const paragraphs: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length) paragraphs.push(current.join(' '));
    current = [];
  };
  for (const raw of withoutCode.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '' || /^([-*_]\s*){3,}$/.test(line) || /^\|?\s*:?-{3,}/.test(line)) {
      flush();
      continue;
    }
    const block = /^(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/.exec(line);
    // Headings and list items stand alone; a quote or plain line continues its paragraph.
    if (block && !block[1].startsWith('>')) flush();
    current.push(inlineText(withoutClosingHashes(line.slice(block ? block[0].length : 0))));
    if (block && !block[1].startsWith('>')) flush();
  }
  flush();
  return paragraphs;
}

function inlineText(line: string): string {
  return line
    .replace(/!\[[^[\]]*\]\([^()]*\)/g, '')
    .replace(/\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/<[^<>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*|_|~~)(?=\S)([^*_~]*?\S)\1/g, '$2')
    .replace(/\|/g, ' ');
}
