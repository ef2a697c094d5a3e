/**
 * The sentences Read Aloud speaks in a document that may hold SSML: an `.ssml` document is read by its markup,
 * a Markdown document as prose with each ```ssml block read by its markup in its place (the block's fence
 * stays silent like other code), any other document as readingSentences reads it.
 */
import { readingKind, readingSentences, type ReadingSentence } from './reading-sentences';
import { SsmlError } from './ssml/parse-ssml';
import { ssmlBlocks } from './ssml/ssml-blocks';
import { ssmlSentences } from './ssml/ssml-reading';

/** Malformed SSML in a document, at its 0-based document line and column. */
export class SsmlReadingError extends Error {
  override readonly name = 'SsmlReadingError';
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`SSML on line ${line + 1}, column ${column + 1}: ${reason}`);
  }
}

export interface ReadingPartsOptions {
  languageId: string;
  /** Only the sentences overlapping `[from, to)`. */
  from?: number;
  to?: number;
  /** The reading voice's language (abbreviations, say-as). */
  language?: string;
  /** A malformed block: refused (SsmlReadingError), or left silent while the writer is still typing it. */
  malformed?: 'refuse' | 'silent';
}

export function readingParts(source: string, options: ReadingPartsOptions): ReadingSentence[] {
  const { languageId, from = 0, to = source.length, language = 'en', malformed = 'refuse' } = options;
  const blocks = ssmlBlocks(source, languageId);
  const prose =
    languageId === 'ssml' ? [] : readingSentences(source, readingKind(languageId), languageId, from, to, language);
  if (blocks.length === 0) return prose;
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const parts: ReadingSentence[] = [];
  for (const block of blocks) {
    const start = lineStarts[block.line] ?? source.length;
    const next = lineStarts[block.endLine + 1];
    // The block as written (its line ends kept), so offsets in it are offsets of the document.
    const text = languageId === 'ssml' ? source : source.slice(start, next === undefined ? source.length : next - 1);
    if (text.trim() === '') continue;
    try {
      for (const sentence of ssmlSentences(text, start, language)) {
        if (sentence.end > from && sentence.start < to) parts.push({ ...sentence, wordStarts: [] });
      }
    } catch (error) {
      if (!(error instanceof SsmlError)) throw error;
      if (malformed === 'refuse')
        throw new SsmlReadingError(block.line + error.line - 1, error.column - 1, error.reason);
    }
  }
  return [...prose, ...parts].sort((a, b) => a.start - b.start);
}
