/**
 * The words of a sentence of a book's XHTML, found in the raw text of its text nodes: each word's place in
 * the sentence as it is read aloud (entities decoded, whitespace collapsed, as `speakable` makes it) and the
 * insertions that put a `<span id>` around it. A word split by markup (`<em>un</em>done`) becomes one span
 * per text node, so a span never crosses an element's edge.
 */
import { wordRanges, type WordAnchor } from '../read-along/word-anchors';
import type { XmlText } from './xml-tree';

/** A text node of a block, and its offset in the block's joined raw text. */
export interface Piece {
  node: XmlText;
  at: number;
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};
const REFERENCE = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/iy;

/** What a character reference reads as (as `speakable` decodes it), or undefined for an unknown name (kept as written). */
function decoded(ref: string): string | undefined {
  if (ref[0] !== '#') return NAMED[ref.toLowerCase()];
  const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
  return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
}

/**
 * The sentence of joined[from, to) as read aloud, its words (ids `${prefix}1`…) and the span insertions
 * (source offsets); undefined when the text has no word.
 */
export function sentenceWords(
  joined: string,
  pieces: readonly Piece[],
  from: number,
  to: number,
  prefix: string,
): { text: string; words: WordAnchor[]; edits: Array<{ at: number; text: string }> } | undefined {
  // Each character read aloud, with the raw range and the text node it comes from.
  const chars: Array<{ text: string; raw: number; rawEnd: number; piece: Piece }> = [];
  let pieceIndex = 0;
  let at = from;
  while (at < to) {
    REFERENCE.lastIndex = at;
    const reference = joined[at] === '&' ? REFERENCE.exec(joined) : null;
    const length = reference && at + reference[0].length <= to ? reference[0].length : 1;
    const text = length > 1 ? (decoded(reference![1]) ?? reference![0]) : joined[at];
    while (pieceIndex + 1 < pieces.length && pieces[pieceIndex + 1].at <= at) pieceIndex++;
    const piece = pieces[pieceIndex];
    for (const char of text) {
      if (/\s/.test(char)) {
        if (chars.length > 0 && chars[chars.length - 1].text !== ' ')
          chars.push({ text: ' ', raw: at, rawEnd: at + length, piece });
      } else {
        chars.push({ text: char, raw: at, rawEnd: at + length, piece });
      }
    }
    at += length;
  }
  while (chars.length > 0 && chars[chars.length - 1].text === ' ') chars.pop();
  // Offsets in the spoken text, per character (a character may be two UTF-16 units), and back.
  const offsets: number[] = [];
  const charAt: number[] = [];
  let spoken = '';
  for (const [index, char] of chars.entries()) {
    offsets.push(spoken.length);
    spoken += char.text;
    while (charAt.length < spoken.length) charAt.push(index);
  }
  const words: WordAnchor[] = [];
  const edits: Array<{ at: number; text: string }> = [];
  for (const range of wordRanges(spoken)) {
    let first = charAt[range.start];
    const last = charAt[range.end - 1];
    // A new span wherever the word's characters pass into another text node.
    for (let index = first; index <= last; index++) {
      if (index < last && chars[index + 1].piece === chars[first].piece) continue;
      const piece = chars[first].piece;
      const id = `${prefix}${words.length + 1}`;
      words.push({ id, start: offsets[first], end: offsets[index] + chars[index].text.length });
      const base = piece.node.startIndex! - piece.at;
      edits.push(
        { at: base + chars[first].raw, text: `<span id="${id}">` },
        { at: base + chars[index].rawEnd, text: '</span>' },
      );
      first = index + 1;
    }
  }
  return words.length > 0 ? { text: spoken, words, edits } : undefined;
}
