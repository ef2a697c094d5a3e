/**
 * Markdown masked for reading aloud, offsets kept: markup characters, link targets, front matter, fenced
 * code and HTML tags become spaces (as text/markdown.ts leaves them unspoken); headings, list items and
 * table rows end their sentence.
 */
import { blank, type MaskedText } from './text-mask';

/** Inline markup, each with the groups to keep: the rest of the match is blanked. */
const INLINE: { pattern: RegExp; keep: (match: RegExpMatchArray) => [number, number] | undefined }[] = [
  {
    pattern: /!?\[([^\]]*)\]\((?:[^()\s]+|\([^)]*\))*(?:\s+"[^"]*")?\)/g,
    keep: (m) => [m[0].indexOf('[') + 1, m[0].indexOf('[') + 1 + m[1].length],
  },
  { pattern: /\[([^\]]+)\]\[[^\]]*\]/g, keep: (m) => [1, 1 + m[1].length] },
  { pattern: /<((?:https?|mailto):[^>\s]+)>/g, keep: (m) => [1, 1 + m[1].length] },
  { pattern: /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, keep: () => undefined },
  { pattern: /(`+)([^`]+?)\1/g, keep: (m) => [m[1].length, m[1].length + m[2].length] },
  { pattern: /(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, keep: (m) => [2, 2 + m[2].length] },
  { pattern: /(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])/g, keep: (m) => [1, 1 + m[2].length] },
  { pattern: /~~(?=\S)(.+?)(?<=\S)~~/g, keep: (m) => [2, 2 + m[1].length] },
];

export function maskMarkdown(source: string): MaskedText {
  const chars = source.split('');
  const breaks: number[] = [];
  let fence: string | undefined;
  let inQuote = false;
  let offset = 0;
  const lines = source.split('\n');
  const frontMatterEnd = source.startsWith('---\n') ? lines.indexOf('---', 1) : -1;
  for (const [index, raw] of lines.entries()) {
    const start = offset;
    const end = start + raw.length;
    offset = end + 1;
    const line = raw.replace(/\r$/, '');
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    const silent =
      index <= frontMatterEnd ||
      fence !== undefined ||
      fenceMatch !== null ||
      /^\s{0,3}\[[^\]]+\]:\s*\S+/.test(line) || // link reference definition
      /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line) || // horizontal rule
      /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line); // table separator row
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = undefined;
    } else if (fenceMatch) {
      fence = fenceMatch[1];
    }
    if (silent) {
      inQuote = false;
      blank(chars, start, end);
      breaks.push(start, end);
      continue;
    }
    inQuote = maskLine(chars, line, start, breaks, inQuote);
  }
  return { text: chars.join(''), breaks };
}

/** Blanks the block markers and inline markup of one line that is read. */
function maskLine(chars: string[], line: string, start: number, breaks: number[], inQuote: boolean): boolean {
  let body = 0;
  const quote = /^\s{0,3}(?:>\s?)+/.exec(line);
  if (quote) {
    body = quote[0].length;
    // A quote starts a sentence of its own; its following lines continue it.
    if (!inQuote) breaks.push(start);
  }
  const rest = line.slice(body);
  const heading = /^\s{0,3}(#{1,6})\s+/.exec(rest);
  const item = /^\s*(?:[-*+]|\d{1,9}[.)])(?:\s+\[[ xX]\])?\s+/.exec(rest);
  if (heading) {
    body += heading[0].length;
    const closing = /\s+#+\s*$/.exec(line);
    if (closing) blank(chars, start + closing.index, start + line.length);
    breaks.push(start, start + line.length);
  } else if (item) {
    body += item[0].length;
    breaks.push(start);
  } else if (/^\s*\|.*\|\s*$/.test(rest)) {
    // Each table cell is read as a sentence of its own.
    for (let i = 0; i < line.length; i++) {
      if (line[i] !== '|') continue;
      chars[start + i] = ' ';
      breaks.push(start + i);
    }
    breaks.push(start, start + line.length);
  }
  blank(chars, start, start + body);
  for (const { pattern, keep } of INLINE) {
    const current = chars.slice(start + body, start + line.length).join('');
    for (const match of current.matchAll(pattern)) {
      const at = start + body + match.index;
      const kept = keep(match);
      if (!kept) {
        blank(chars, at, at + match[0].length);
        continue;
      }
      blank(chars, at, at + kept[0]);
      blank(chars, at + kept[1], at + match[0].length);
    }
  }
  return quote !== null;
}
