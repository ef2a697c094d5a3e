/**
 * The quoted passages of a paragraph (dialogue), in any of the usual quotation styles: “…”, „…“, «…», »…«,
 * ‘…’ and straight "…". A paragraph becomes narration and quotes in order, so each quote can be read by its
 * speaker's voice and the rest by the narrator's.
 */

export interface TextPiece {
  kind: 'narration' | 'quote';
  /** The piece's text; a quote without its quotation marks. */
  text: string;
  /** Where the piece is in the paragraph: `[start, end)`, a quote with its quotation marks. */
  start: number;
  end: number;
}

const PAIRS: ReadonlyArray<[string, string]> = [
  ['“', '”'],
  ['„', '“'],
  ['«', '»'],
  ['»', '«'],
  ['"', '"'],
  ['‘', '’'],
];

/** Splits a paragraph into narration and quotes; an unclosed quotation mark is narration. */
export function splitQuotes(paragraph: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let narration = '';
  let narrationStart = 0;
  let at = 0;
  const endNarration = (end: number): void => {
    if (narration.trim()) pieces.push({ kind: 'narration', text: narration.trim(), start: narrationStart, end });
    narration = '';
  };
  while (at < paragraph.length) {
    const pair = PAIRS.find(([open]) => paragraph.startsWith(open, at));
    // ‘ is also an apostrophe: only a ‘ at a word's start opens a quote.
    const opens = pair && !(pair[0] === '‘' && at > 0 && /[\p{L}\p{N}]/u.test(paragraph[at - 1]));
    const close = opens ? paragraph.indexOf(pair[1], at + pair[0].length) : -1;
    if (!opens || close < 0 || paragraph.slice(at + 1, close).trim() === '') {
      if (!narration) narrationStart = at;
      narration += paragraph[at];
      at++;
      continue;
    }
    endNarration(at);
    const end = close + pair[1].length;
    pieces.push({ kind: 'quote', text: paragraph.slice(at + pair[0].length, close).trim(), start: at, end });
    at = end;
  }
  endNarration(paragraph.length);
  return pieces;
}

/** The key a quote's attribution is kept under in the cast file: its text with runs of whitespace made one space. */
export const quoteKey = (quote: string): string => quote.replace(/\s+/g, ' ').trim();
