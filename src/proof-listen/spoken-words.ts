/**
 * Both sides of a proof-listen as comparable tokens: the source's words as the narrator reads them (from
 * the Read Aloud sentences, so Markdown markup and code blocks are silent), each with its source range, and
 * the recognizer's words with their times. Both go through the same normalizer, so "12" and "twelve",
 * "Don't" and "dont" compare equal.
 */
import { normalizeText } from '../text/normalize';
import { readingSentences, type ReadingKind } from '../text/reading-sentences';

/** One spoken token of the source: a word of the text, or one of the words a number or symbol expands to. */
export interface SourceToken {
  /** Normalized: lower case, no punctuation. */
  token: string;
  /** The word as read (without markup, and without the punctuation around it). */
  text: string;
  /** Index of the source word it comes from (tokens of "12.50" share it). */
  word: number;
  /** Index of the sentence it is in: a finding does not run across sentences. */
  sentence: number;
  /** The source word's range (offsets in the source), trimmed of punctuation around it. */
  start: number;
  end: number;
}

/** One token of what the recognizer heard, with the time of the word it comes from. */
export interface HeardToken {
  token: string;
  /** Index of the transcript word it comes from. */
  word: number;
  start: number;
  end: number;
}

export interface SourceWords {
  tokens: SourceToken[];
  /** The text to narrate: the readable sentences, one a line. */
  narration: string;
}

/** A recognized word, as a transcript stores it. */
export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

const WORD_EDGE = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
/** Quotes and brackets before a word, and sentence punctuation after it: not part of the word as shown. */
const OPENING = /^["'¡¿\p{Ps}\p{Pi}]*/u;
const CLOSING = /[.,;:!?…"'\p{Pe}\p{Pf}]+$/u;

/**
 * The normalized tokens of one written or recognized word: expanded as the narrator says it (numbers, money,
 * addresses in English), lower case, without punctuation or apostrophes, hyphenated parts apart.
 * @example spokenTokens("$12.50", 'en-US') // ['twelve', 'dollars', 'and', 'fifty', 'cents']
 */
export function spokenTokens(word: string, languageCode: string): string[] {
  return normalizeText(word, languageCode)
    .normalize('NFKC')
    .toLocaleLowerCase()
    .split(/[\s\-‐‑–—/]+/u)
    .map((part) => part.replace(/['’‘]/gu, '').replace(WORD_EDGE, ''))
    .filter((part) => part.length > 0);
}

/** spokenTokens with a memory: prose repeats its words, and the normalizer is the costly part. */
function tokenizer(languageCode: string): (word: string) => string[] {
  const known = new Map<string, string[]>();
  return (word) => {
    let tokens = known.get(word);
    if (!tokens) known.set(word, (tokens = spokenTokens(word, languageCode)));
    return tokens;
  };
}

/**
 * The source's spoken tokens, and the text to narrate, for the part `from`–`to` of the source.
 * @example sourceWords('# Hi\n\nIt costs $5.', 'markdown', '', 'en-US').tokens.map((t) => t.token)
 * // ['hi', 'it', 'costs', 'five', 'dollars']
 */
export function sourceWords(
  source: string,
  kind: ReadingKind,
  languageId: string,
  languageCode: string,
  from = 0,
  to = source.length,
): SourceWords {
  const sentences = readingSentences(source, kind, languageId, from, to);
  const tokens: SourceToken[] = [];
  const tokensOf = tokenizer(languageCode);
  let word = 0;
  sentences.forEach((sentence, index) => {
    sentence.text.split(' ').forEach((text, i) => {
      const origin = sentence.wordStarts[i];
      if (origin === undefined) return;
      const lead = OPENING.exec(text)![0].length;
      const core = text.slice(lead).replace(CLOSING, '');
      const start = origin + (core ? lead : 0);
      const end = core ? start + core.length : origin + text.length;
      for (const token of tokensOf(text)) tokens.push({ token, text: core || text, word, sentence: index, start, end });
      word++;
    });
  });
  return { tokens, narration: sentences.map((sentence) => sentence.text).join('\n') };
}

/** The recognizer's words as tokens, each with its word's time. */
export function heardWords(words: readonly TimedWord[], languageCode: string): HeardToken[] {
  const tokensOf = tokenizer(languageCode);
  return words.flatMap((word, index) =>
    tokensOf(word.text).map((token) => ({ token, word: index, start: word.start, end: word.end })),
  );
}
