/**
 * Source code masked to its comments, offsets kept: code, strings and comment markers (`//`, `#`, `/*`,
 * the `*` that starts each line of a block comment) become spaces. Line comments on neighbouring lines read
 * as one paragraph; a comment that ends before code ends its sentence.
 */
import { blank, type MaskedText } from './text-mask';

interface CommentSyntax {
  line: string[];
  block: [string, string][];
  /** String delimiters, so that a `//` or `#` inside a string is not taken for a comment. */
  quotes: string[];
}

const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']], quotes: ['"', "'", '`'] };
const HASH: CommentSyntax = { line: ['#'], block: [], quotes: ['"', "'"] };
const DASHES: CommentSyntax = { line: ['--'], block: [], quotes: ['"', "'"] };

const SYNTAX: Record<string, CommentSyntax> = {
  ...Object.fromEntries(
    [
      'javascript',
      'javascriptreact',
      'typescript',
      'typescriptreact',
      'java',
      'c',
      'cpp',
      'csharp',
      'go',
      'rust',
      'swift',
      'kotlin',
      'scala',
      'dart',
      'php',
      'groovy',
      'jsonc',
      'objective-c',
      'zig',
    ].map((id) => [id, C_LIKE]),
  ),
  css: { line: [], block: [['/*', '*/']], quotes: ['"', "'"] },
  scss: C_LIKE,
  less: C_LIKE,
  ...Object.fromEntries(
    [
      'python',
      'shellscript',
      'ruby',
      'perl',
      'r',
      'yaml',
      'toml',
      'dockerfile',
      'makefile',
      'powershell',
      'elixir',
      'julia',
      'coffeescript',
    ].map((id) => [id, HASH]),
  ),
  ...Object.fromEntries(['sql', 'lua', 'haskell', 'ada'].map((id) => [id, DASHES])),
  html: { line: [], block: [['<!--', '-->']], quotes: [] },
  xml: { line: [], block: [['<!--', '-->']], quotes: [] },
};

/** The source masked to its comments, or undefined when the language's comment syntax is unknown. */
export function maskComments(source: string, languageId: string): MaskedText | undefined {
  const syntax = SYNTAX[languageId];
  if (!syntax) return undefined;
  const chars = source.split('');
  const breaks: number[] = [];
  let codeFrom = 0;
  let i = 0;
  /** Where the last line comment ended, so that one on the next line continues its paragraph. */
  let lineCommentEnd = -1;
  const startsWith = (token: string): boolean => source.startsWith(token, i);
  while (i < source.length) {
    const quote = syntax.quotes.find(startsWith);
    if (quote) {
      i = stringEnd(source, i, quote);
      continue;
    }
    const line = syntax.line.find(startsWith);
    const block = syntax.block.find(([open]) => startsWith(open));
    if (!line && !block) {
      i++;
      continue;
    }
    const between = source.slice(lineCommentEnd, i);
    const continues = line !== undefined && lineCommentEnd >= 0 && /^[ \t]*\r?\n[ \t]*$/.test(between);
    blank(chars, codeFrom, i);
    if (!continues) breaks.push(i);
    if (line) {
      let end = source.indexOf('\n', i);
      if (end < 0) end = source.length;
      // `///`, `//!`, `##`: the marker runs on.
      let body = i + line.length;
      while (body < end && (source[body] === line[0] || source[body] === '!')) body++;
      blank(chars, i, body);
      i = end;
      lineCommentEnd = end;
    } else {
      const [open, close] = block!;
      const closeAt = source.indexOf(close, i + open.length);
      const end = closeAt < 0 ? source.length : closeAt + close.length;
      maskBlockComment(source, chars, i, end, open, close);
      breaks.push(end);
      i = end;
      lineCommentEnd = -1;
    }
    codeFrom = i;
  }
  blank(chars, codeFrom, source.length);
  if (lineCommentEnd >= 0) breaks.push(lineCommentEnd);
  return { text: chars.join(''), breaks };
}

/** Blanks a block comment's delimiters and the `*` that begins each of its lines (JSDoc style). */
function maskBlockComment(
  source: string,
  chars: string[],
  from: number,
  to: number,
  open: string,
  close: string,
): void {
  let body = from + open.length;
  while (body < to && source[body] === '*') body++;
  blank(chars, from, body);
  if (source.endsWith(close, to)) blank(chars, to - close.length, to);
  for (const match of source.slice(from, to).matchAll(/\n[ \t]*\*(?!\/)/g)) {
    blank(chars, from + match.index, from + match.index + match[0].length);
  }
}

/** Offset just past a string literal starting at `from`; one-line quotes end at the line's end too. */
function stringEnd(source: string, from: number, quote: string): number {
  let i = from + quote.length;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') i += 2;
    else if (source.startsWith(quote, i)) return i + quote.length;
    else if (c === '\n' && quote !== '`') return i;
    else i++;
  }
  return source.length;
}
