/**
 * The sentences Read Aloud speaks, each with its range in the source text, so the editor can highlight
 * what is being said. Markdown is read as prose (markup, link targets and fenced code are silent) and
 * source files are read by their comments only. Everything silent is masked to spaces in a copy of the
 * text of the same length, so every offset in the copy is an offset in the source.
 */
import { maskComments } from './comment-mask';
import { maskMarkdown } from './markdown-mask';
import { sentenceEnds } from './sentence-breaks';
import type { MaskedText } from './text-mask';
import { ssmlSpanAt, type SsmlPart } from './ssml/ssml-reading';

export type ReadingKind = 'markdown' | 'comments' | 'plain';

export interface ReadingSentence {
  /** Offset of the sentence's first character in the source. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** What to speak: the unmasked words of the range, with runs of whitespace as one space. */
  text: string;
  /** Source offset of each word (run of non-space characters) of `text`, in order. */
  wordStarts: number[];
  /** A part of SSML (reading-parts.ts): spoken by its markup, highlighted by where each step is written. */
  ssml?: SsmlPart;
}

/** A blank line ends a paragraph. */
const BLANK_LINE = /\n[ \t\r]*\n/g;
const SPEAKABLE = /[\p{L}\p{N}]/u;

/** The reading kind of a VS Code language id. */
export function readingKind(languageId: string): ReadingKind {
  if (languageId === 'markdown' || languageId === 'mdx') return 'markdown';
  return maskComments('', languageId) ? 'comments' : 'plain';
}

/**
 * The sentences of `source` to read, in order; `from`/`to` limit them to those that overlap a range (a
 * selection, or from the cursor on).
 *
 * @example readingSentences('# Title\n\nOne. Two [link](http://x).', 'markdown').map((s) => s.text)
 * // ['Title', 'One.', 'Two link.']
 */
export function readingSentences(
  source: string,
  kind: ReadingKind,
  languageId = '',
  from = 0,
  to = source.length,
  /** The spoken language (BCP 47), for its abbreviations: "Dr." does not end a sentence. */
  language = 'en',
): ReadingSentence[] {
  const masked =
    kind === 'markdown'
      ? maskMarkdown(source)
      : kind === 'comments'
        ? (maskComments(source, languageId) ?? plain(source))
        : plain(source);
  return splitMasked(masked, language)
    .filter((sentence) => sentence.end > from && sentence.start < to)
    .map((sentence) => clip(masked.text, sentence, from, to))
    .map((sentence) => (kind === 'markdown' ? withMarkup(source, masked.text, sentence) : sentence));
}

function plain(source: string): MaskedText {
  return { text: source, breaks: [] };
}

/** A sentence cut by the range keeps only its part inside the range. */
function clip(masked: string, sentence: ReadingSentence, from: number, to: number): ReadingSentence {
  if (sentence.start >= from && sentence.end <= to) return sentence;
  return spanOf(masked, Math.max(from, sentence.start), Math.min(to, sentence.end)) ?? sentence;
}

function splitMasked({ text, breaks }: MaskedText, language: string): ReadingSentence[] {
  const cuts = new Set<number>([0, text.length, ...breaks, ...sentenceEnds(text, language)]);
  for (const match of text.matchAll(BLANK_LINE)) cuts.add(match.index + 1);
  const sorted = [...cuts].filter((cut) => cut >= 0 && cut <= text.length).sort((a, b) => a - b);
  const sentences: ReadingSentence[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const sentence = spanOf(text, sorted[i - 1], sorted[i]);
    if (sentence) sentences.push(sentence);
  }
  return sentences;
}

/** The trimmed sentence in `[start, end)` of the masked text; undefined when it has nothing to say. */
function spanOf(masked: string, start: number, end: number): ReadingSentence | undefined {
  const slice = masked.slice(start, end);
  if (!SPEAKABLE.test(slice)) return undefined;
  const lead = slice.length - slice.trimStart().length;
  const trail = slice.length - slice.trimEnd().length;
  const wordStarts = [...slice.matchAll(/\S+/g)].map((match) => start + match.index);
  return { start: start + lead, end: end - trail, text: slice.trim().replace(/\s+/g, ' '), wordStarts };
}

/** The range widened over the markup that touches it (`**`, `[`, a closing `*`), so the highlight covers what the reader sees. */
function withMarkup(source: string, masked: string, sentence: ReadingSentence): ReadingSentence {
  let { start, end } = sentence;
  const hidden = (i: number): boolean => masked[i] === ' ' && source[i] !== undefined && !/\s/.test(source[i]);
  while (start > 0 && hidden(start - 1)) start--;
  while (end < source.length && hidden(end)) end++;
  return { ...sentence, start, end };
}

/**
 * The source range of `[start, end)` of a sentence's text (a word the engine reported), found through the
 * word it falls in; undefined when it spans words.
 */
export function sourceRange(
  sentence: ReadingSentence,
  start: number,
  end: number,
): { start: number; end: number } | undefined {
  if (sentence.ssml) {
    const span = ssmlSpanAt(sentence.ssml, start);
    return span && { start: sentence.start + span.start, end: sentence.start + span.end };
  }
  let wordIndex = -1;
  let wordStart = 0;
  for (const match of sentence.text.matchAll(/\S+/g)) {
    if (match.index > start) break;
    wordIndex++;
    wordStart = match.index;
  }
  const origin = sentence.wordStarts[wordIndex];
  if (origin === undefined) return undefined;
  return { start: origin + start - wordStart, end: origin + end - wordStart };
}
