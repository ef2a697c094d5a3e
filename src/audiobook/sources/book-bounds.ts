/**
 * How much of a book (EPUB or DOCX) an export reads, so a small hostile or broken file cannot make the reader
 * expand it without end: the text all together (as a manuscript is bounded), one document's XHTML, how deep
 * its elements nest, and how long a sentence or a paragraph may run before it is cut into pieces a voice can
 * read (a real book's never are; a file of one endless paragraph is).
 */
import { ManuscriptError, MAX_MANUSCRIPT_BYTES } from '../manuscript-files';

/** The most text a book may hold, in characters: the bound a manuscript has. */
export const MAX_BOOK_TEXT = MAX_MANUSCRIPT_BYTES;
/** The most characters one document (XHTML, word/document.xml) may hold, markup included. */
export const MAX_DOCUMENT_CHARS = 4 * MAX_BOOK_TEXT;
/** Deeper nesting than any book's; htmlparser2 also slows down more than linearly on deeper documents. */
export const MAX_NESTING = 5_000;
/** A sentence longer than this is cut at a space (or, failing one, here) into sentences of its own. */
export const MAX_SENTENCE_CHARS = 2_000;
/** A paragraph whose sentences run longer than this is read as several paragraphs. */
export const MAX_PARAGRAPH_CHARS = 10_000;

/** Refuses a document too large to read, or nesting its elements deeper than `MAX_NESTING`; `name` names it. */
export function checkDocumentSize(source: string, name: string): void {
  if (source.length > MAX_DOCUMENT_CHARS)
    throw new ManuscriptError(
      `${name} is ${(source.length / 1024 / 1024).toFixed(0)} MB of text, more than the ${MAX_DOCUMENT_CHARS / 1024 / 1024} MB one document of a book may hold.`,
    );
  let depth = 0;
  // Start and end tags, counted without a parser (comments and CDATA may hold `<`, which only errs towards depth 0).
  for (const tag of source.matchAll(/<(\/?)[A-Za-z_][^<>]*?(\/?)>/g)) {
    if (tag[1]) depth--;
    else if (!tag[2] && ++depth > MAX_NESTING)
      throw new ManuscriptError(
        `${name} nests its elements more than ${MAX_NESTING} deep; it is not a book this export reads.`,
      );
  }
}

/** Counts a book's text as it is read, and refuses the book once it holds more than `MAX_BOOK_TEXT`. */
export class TextBudget {
  private total = 0;
  constructor(private readonly source: string) {}

  spend(characters: number): void {
    this.total += characters;
    if (this.total > MAX_BOOK_TEXT)
      throw new ManuscriptError(
        `${this.source} holds more than ${MAX_BOOK_TEXT / 1024 / 1024} M characters of text, more than an export reads; split it into several books.`,
      );
  }
}

/** About how many characters of text an XHTML document holds: what is not markup, spaces runs counted once. */
export function textLength(xhtml: string): number {
  let length = 0;
  for (const run of xhtml.matchAll(/>([^<]+)</g)) length += run[1].replace(/\s+/g, ' ').length;
  return length;
}

/** `[from, to)` cut into ranges of at most `MAX_SENTENCE_CHARS`, each ending after a space where there is one. */
export function cutLongRange(text: string, from: number, to: number): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  while (to - from > MAX_SENTENCE_CHARS) {
    const window = text.slice(from, from + MAX_SENTENCE_CHARS);
    const space = window.search(/\s\S*$/);
    const end = space > 0 ? from + space + 1 : from + MAX_SENTENCE_CHARS;
    pieces.push([from, end]);
    from = end;
  }
  pieces.push([from, to]);
  return pieces;
}

/** Items (sentences) grouped into runs whose text together stays within `MAX_PARAGRAPH_CHARS`. */
export function groupByLength<T>(items: readonly T[], length: (item: T) => number): T[][] {
  const groups: T[][] = [];
  let size = Infinity;
  for (const item of items) {
    if (size + length(item) > MAX_PARAGRAPH_CHARS) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1].push(item);
    size += length(item);
  }
  return groups;
}
