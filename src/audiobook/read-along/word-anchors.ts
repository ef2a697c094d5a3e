/**
 * The words of a read-along sentence, each an element a word-level Media Overlay can point at: where each
 * word stands in the sentence's spoken text, and that text as marked-up XHTML with a `<span id>` per word.
 */
import { escapeXml } from '../../text/escape-xml';

/** A word of a sentence: its element id and where it stands in the sentence's text (UTF-16 offsets). */
export interface WordAnchor {
  id: string;
  start: number;
  end: number;
}

/** A word: letters, marks and digits, joined by an apostrophe or a hyphen inside it ("don't", "well-known"). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’-][\p{L}\p{M}\p{N}]+)*/gu;

/** The words of `text` as offset ranges, in order. */
export function wordRanges(text: string): Array<{ start: number; end: number }> {
  return [...text.matchAll(WORD)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** The words of `text` with ids `${prefix}1`, `${prefix}2`…. */
export function wordAnchors(text: string, prefix: string): WordAnchor[] {
  return wordRanges(text).map((range, index) => ({ id: `${prefix}${index + 1}`, ...range }));
}

/**
 * `text` from offset `from` on, escaped for XHTML, each word of `words` (at or after `from`) in its own
 * `<span id>`.
 *
 * @example wordSpans('Hi, you.', [{ id: 'w1', start: 0, end: 2 }, { id: 'w2', start: 4, end: 7 }]) // '<span id="w1">Hi</span>, <span id="w2">you</span>.'
 */
export function wordSpans(text: string, words: readonly WordAnchor[], from = 0): string {
  const parts: string[] = [];
  let at = from;
  for (const word of words) {
    if (word.start < from) continue;
    parts.push(
      escapeXml(text.slice(at, word.start)),
      `<span id="${escapeXml(word.id)}">`,
      escapeXml(text.slice(word.start, word.end)),
      '</span>',
    );
    at = word.end;
  }
  parts.push(escapeXml(text.slice(at)));
  return parts.join('');
}
