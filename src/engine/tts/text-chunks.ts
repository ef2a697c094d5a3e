/**
 * Cuts long text into pieces espeak can synthesize one at a time, so memory stays bounded and progress
 * can be reported. Cuts fall at sentence ends and line breaks. A chunk is an unchanged slice of the text
 * (trimmed), so sentences grouped into one chunk keep the spacing espeak would have seen anyway.
 */
import { sentenceEnds } from '../../text/sentence-breaks';

export const DEFAULT_MAX_CHUNK_CHARS = 400;

const LINE_BREAK = /\n/gu;
const WORD = /\S+/gu;

interface Span {
  start: number;
  end: number;
}

/**
 * Splits `text` into chunks of at most `maxChars` UTF-16 code units, never inside a word unless a word
 * alone is longer than `maxChars`. Whitespace-only text gives no chunks.
 *
 * @example splitIntoChunks('One. Two.\nThree', 9) // ['One. Two.', 'Three']
 */
export function splitIntoChunks(text: string, maxChars = DEFAULT_MAX_CHUNK_CHARS, language = 'en'): string[] {
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new TypeError(`Expected a positive integer maxChars, got ${maxChars}`);
  }
  return groupSpans(sentenceSpans(text, language), maxChars, (sentence) =>
    groupSpans(wordSpans(text, sentence), maxChars, (word) => hardCuts(text, word, maxChars)),
  ).map(({ start, end }) => text.slice(start, end));
}

/**
 * Greedily merges neighbouring spans while the merged span stays within `maxChars`;
 * a span that is too long by itself is replaced by what `splitTooLong` makes of it.
 */
function groupSpans(spans: Iterable<Span>, maxChars: number, splitTooLong: (span: Span) => Span[]): Span[] {
  const groups: Span[] = [];
  let current: Span | undefined;
  for (const span of spans) {
    if (span.end - span.start > maxChars) {
      if (current) groups.push(current);
      const pieces = splitTooLong(span);
      groups.push(...pieces.slice(0, -1));
      current = pieces[pieces.length - 1]; // may still merge with what follows
    } else if (current && span.end - current.start <= maxChars) {
      current = { start: current.start, end: span.end };
    } else {
      if (current) groups.push(current);
      current = span;
    }
  }
  if (current) groups.push(current);
  return groups;
}

/** The sentences of `text` (a line break ends one too), each without surrounding whitespace. */
function* sentenceSpans(text: string, language: string): Generator<Span> {
  const lineEnds = [...text.matchAll(LINE_BREAK)].map((match) => match.index + 1);
  const cuts = [...new Set([...sentenceEnds(text, language), ...lineEnds])].sort((a, b) => a - b);
  let start = 0;
  for (const end of cuts) {
    yield* wordSpanBounds(text, { start, end });
    start = end;
  }
  yield* wordSpanBounds(text, { start, end: text.length });
}

/** `span` shrunk to its first and last non-space character; nothing when it is all whitespace. */
function* wordSpanBounds(text: string, span: Span): Generator<Span> {
  const words = [...wordSpans(text, span)];
  if (words.length > 0) yield { start: words[0].start, end: words[words.length - 1].end };
}

function* wordSpans(text: string, span: Span): Generator<Span> {
  const slice = text.slice(span.start, span.end);
  for (const match of slice.matchAll(WORD)) {
    yield { start: span.start + match.index, end: span.start + match.index + match[0].length };
  }
}

/** Cuts one overlong word every `maxChars` code units, never between the halves of a surrogate pair. */
function hardCuts(text: string, word: Span, maxChars: number): Span[] {
  const pieces: Span[] = [];
  let start = word.start;
  while (start < word.end) {
    let end = Math.min(word.end, start + maxChars);
    const splitsPair = end < word.end && isHighSurrogate(text.charCodeAt(end - 1));
    if (splitsPair && end - start > 1) end--;
    pieces.push({ start, end });
    start = end;
  }
  return pieces;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
