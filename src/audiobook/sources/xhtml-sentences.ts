/**
 * A book's XHTML document read as paragraphs of sentences, and the same document with an id on every
 * sentence (a `<span>` around it), so a Media Overlay can point at each one. Nothing else in the document
 * changes: the edits are insertions at source offsets. A sentence that crosses an inline element's edge
 * (starts inside `<em>`, ends after it) is merged with the next until both ends share a parent; a paragraph
 * where that never happens is pointed at whole, by its own id. Each sentence's words are found too, and a
 * second marked document carries a `<span id>` per word as well (a word split by markup, `<em>un</em>done`,
 * is a span on each side, so no span ever crosses an element's edge).
 */
import { sentenceEnds } from '../../text/sentence-breaks';
import { cutLongRange } from './book-bounds';
import type { WordAnchor } from '../read-along/word-anchors';
import { sentenceWords, type Piece } from './xhtml-words';
import {
  attr,
  escapeXml,
  isElement,
  isText,
  localName,
  parseXml,
  speakable,
  type XmlElement,
  type XmlNode,
} from './xml-tree';

export interface MarkedSentence {
  /** The id of the sentence's element in the marked document. */
  id: string;
  /** What is read aloud. */
  text: string;
  /** Its words, with the ids they carry in `markedWords` (offsets in `text`). */
  words?: WordAnchor[];
}

export interface MarkedBlock {
  /** Ids of the elements that open since the previous paragraph (where a table-of-contents link may point). */
  anchors: string[];
  sentences: MarkedSentence[];
  /** Whether the paragraph is a heading (h1–h6). */
  heading: boolean;
}

export interface MarkedDocument {
  blocks: MarkedBlock[];
  /** The document with the sentence ids added. */
  marked: string;
  /** The document with the sentence ids and a span with an id around every word of them. */
  markedWords: string;
  /** epub:type values on the document's html, body and section elements (front/back matter hints). */
  types: string[];
  /** The document's first heading, if any. */
  heading: string | undefined;
}

const BLOCKS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'dt',
  'dd',
  'blockquote',
  'figcaption',
  'caption',
  'td',
  'th',
  'pre',
  'div',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'main',
  'ol',
  'ul',
  'dl',
  'table',
  'tr',
  'tbody',
  'thead',
  'figure',
  'nav',
  'body',
  'hr',
]);
const UNREAD = new Set(['script', 'style', 'head', 'rt', 'rp', 'svg', 'math', 'title']);

/** The elements that hold a block element anywhere inside them, found in one pass from the leaves up. */
function elementsHoldingBlocks(root: XmlElement): Set<XmlElement> {
  const holding = new Set<XmlElement>();
  const order: XmlElement[] = [];
  const stack: XmlElement[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    order.push(node);
    for (const child of node.children) if (isElement(child)) stack.push(child);
  }
  // Children come after their parents in `order`, so walking it backwards sees every child first.
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    const parent = node.parent as XmlElement | null;
    if (parent && isElement(parent) && (BLOCKS.has(localName(node.name)) || holding.has(node))) holding.add(parent);
  }
  return holding;
}

/** The last piece starting at or before `offset` (pieces are in offset order). */
function pieceIndexAt(pieces: readonly Piece[], offset: number): number {
  let low = 0;
  let high = pieces.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (pieces[middle].at <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Marks the document's sentences with ids `${prefix}${n}`; `prefix` must not start any id already there. */
export function markSentences(source: string, prefix: string): MarkedDocument {
  const root = parseXml(source);
  const holdingBlocks = elementsHoldingBlocks(root);
  const edits: Array<{ at: number; text: string; word?: true }> = [];
  const blocks: MarkedBlock[] = [];
  const types: string[] = [];
  let anchors: string[] = [];
  let count = 0;
  let heading: string | undefined;
  const nextId = (): string => `${prefix}${++count}`;

  const readBlock = (block: XmlElement): void => {
    const pieces: Piece[] = [];
    let joined = '';
    // The block's text nodes in document order, without recursion (a book's inline markup may nest deep).
    const stack: XmlNode[] = [block];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (isText(node) && node.type === 'text') {
        pieces.push({ node, at: joined.length });
        joined += node.data;
      } else if (isElement(node) && !UNREAD.has(localName(node.name))) {
        const id = attr(node, 'id');
        if (id) anchors.push(id);
        for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      }
    }
    const isHeading = /^h[1-6]$/.test(localName(block.name));
    if (isHeading && heading === undefined && /[\p{L}\p{N}]/u.test(speakable(joined))) heading = speakable(joined);
    if (!/[\p{L}\p{N}]/u.test(speakable(joined))) return;
    const blockAnchors = anchors;
    anchors = [];
    // Sentence ranges in `joined`, trimmed, those without a letter or digit merged into the one before.
    const ranges: Array<[number, number]> = [];
    let from = 0;
    for (const end of [
      ...sentenceEnds(joined.replace(/&[^;\s]{1,10};/g, (e) => ' '.repeat(e.length))),
      joined.length,
    ]) {
      if (end <= from) continue;
      const piece = joined.slice(from, end);
      const start = from + (piece.length - piece.trimStart().length);
      const stop = end - (piece.length - piece.trimEnd().length);
      if (stop > start) {
        if (/[\p{L}\p{N}]/u.test(joined.slice(start, stop)) || ranges.length === 0)
          ranges.push(...cutLongRange(joined, start, stop));
        else ranges[ranges.length - 1][1] = stop;
      }
      from = end;
    }
    const locate = (offset: number, isEnd: boolean): { piece: Piece; inner: number } => {
      // An end offset belongs to the piece it closes, a start offset to the piece it opens.
      let i = pieceIndexAt(pieces, isEnd ? offset - 1 : offset);
      while (i > 0 && pieces[i].node.data.length === 0) i--;
      const piece = pieces[i];
      const inner = offset - piece.at;
      if (isEnd ? inner <= 0 || inner > piece.node.data.length : inner < 0 || inner >= piece.node.data.length)
        throw new Error('offset outside the text');
      return { piece, inner };
    };
    const sentences: MarkedSentence[] = [];
    const blockEdits: Array<{ at: number; text: string; word?: true }> = [];
    /** The sentence of joined[from, to), its words marked with ids `${wordPrefix}n`. */
    const sentenceOf = (
      id: string,
      from: number,
      to: number,
      wordPrefix: string,
      into: typeof blockEdits,
    ): MarkedSentence => {
      const text = speakable(joined.slice(from, to));
      const found = sentenceWords(joined, pieces, from, to, wordPrefix);
      if (!found || found.text !== text) return { id, text };
      for (const edit of found.edits) into.push({ ...edit, word: true });
      return { id, text, words: found.words };
    };
    let index = 0;
    while (index < ranges.length) {
      const start = locate(ranges[index][0], false);
      let last = index;
      let end = locate(ranges[last][1], true);
      while (end.piece.node.parent !== start.piece.node.parent && last + 1 < ranges.length)
        end = locate(ranges[++last][1], true);
      if (end.piece.node.parent !== start.piece.node.parent) break;
      const id = nextId();
      blockEdits.push({ at: start.piece.node.startIndex! + start.inner, text: `<span id="${id}">` });
      sentences.push(sentenceOf(id, ranges[index][0], ranges[last][1], `${id}w`, blockEdits));
      blockEdits.push({ at: end.piece.node.startIndex! + end.inner, text: '</span>' });
      index = last + 1;
    }
    if (index < ranges.length) {
      // Some sentence could not be wrapped: the paragraph is one clip, pointed at by the block's own id.
      let id = attr(block, 'id');
      let wordPrefix: string;
      if (!id) {
        id = nextId();
        wordPrefix = `${id}w`;
        edits.push({ at: block.startIndex! + 1 + block.name.length, text: ` id="${escapeXml(id)}"` });
      } else {
        // The block's own id may be anything: its words take a fresh number of ours.
        wordPrefix = `${nextId()}w`;
      }
      blocks.push({
        anchors: blockAnchors,
        heading: isHeading,
        sentences: [sentenceOf(id, 0, joined.length, wordPrefix, edits)],
      });
      return;
    }
    // One by one: a long paragraph has more edits than a spread's arguments may be.
    for (const edit of blockEdits) edits.push(edit);
    blocks.push({ anchors: blockAnchors, heading: isHeading, sentences });
  };

  // The document's elements in document order, without recursion (a book may nest its elements deep).
  const stack: XmlNode[] = [...root.children].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node)) continue;
    const name = localName(node.name);
    if (UNREAD.has(name)) continue;
    const epubType = attr(node, 'epub:type');
    if (epubType && ['html', 'body', 'section', 'div', 'article'].includes(name))
      types.push(...epubType.split(/\s+/).filter(Boolean));
    if (BLOCKS.has(name) && name !== 'body' && !holdingBlocks.has(node)) {
      readBlock(node);
      continue;
    }
    const id = attr(node, 'id');
    if (id) anchors.push(id);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  // Edits at the same offset keep their order (a sentence's `</span>` before the next `<span>`).
  const ordered = edits.map((edit, order) => ({ ...edit, order })).sort((a, b) => a.at - b.at || a.order - b.order);
  const apply = (chosen: typeof ordered): string => {
    const parts: string[] = [];
    let from = 0;
    for (const edit of chosen) {
      parts.push(source.slice(from, edit.at), edit.text);
      from = edit.at;
    }
    parts.push(source.slice(from));
    return parts.join('');
  };
  return { blocks, marked: apply(ordered.filter((edit) => !edit.word)), markedWords: apply(ordered), types, heading };
}
