/**
 * Flags the segments (or cues) a speech recognizer probably invented: whisper loops on a phrase, fills
 * music and silence with stock phrases from its training subtitles ("Thanks for watching"), and writes text
 * faster than anyone speaks. Each flag is a hint for a person to check, never a verdict; the transcript keeps
 * the text. Used for `json-full`'s per-segment `flags` and by the subtitle check in the editor.
 */
import stockPhrases from './stock-phrases.json';

export type HallucinationFlag = 'repetition' | 'no-speech' | 'stock-phrase' | 'too-fast';

export const HALLUCINATION_FLAGS: readonly HallucinationFlag[] = [
  'repetition',
  'no-speech',
  'stock-phrase',
  'too-fast',
];

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

export interface SpeechSpan {
  start: number;
  end: number;
}

export interface FlagOptions {
  /** Where voice activity detection heard speech, in the segments' time; without it, `no-speech` is never set. */
  speech?: readonly SpeechSpan[];
}

/** Under this share of its time over detected speech, a segment with text is flagged `no-speech`. */
export const MIN_SPEECH_SHARE = 0.2;
/** Faster than these, nobody speaks: about twice a fast talker's rate (4–5 words, 6–7 CJK characters a second). */
export const MAX_WORDS_PER_SECOND = 9;
export const MAX_CJK_CHARACTERS_PER_SECOND = 14;
/** A phrase of one word repeated this often in a row is a loop ("no no no" is speech; five times is not). */
const SINGLE_WORD_REPEATS = 5;
/** A phrase of two to eight words repeated this often in a row is a loop. */
const PHRASE_REPEATS = 3;
const MAX_PHRASE_WORDS = 8;
/** A stock phrase flags a segment when it makes up at least this share of the segment's letters. */
const STOCK_SHARE = 0.5;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const PUNCTUATION = /[\p{P}\p{S}]/gu;

/** Text folded for comparison: compatibility forms, case, accents, punctuation and spaces gone ("İ" is "i"). */
export function foldForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(PUNCTUATION, '')
    .replace(/\s+/gu, '');
}

const words = (text: string): string[] =>
  text.normalize('NFKC').toLocaleLowerCase().replace(PUNCTUATION, ' ').split(/\s+/u).filter(Boolean);

const FOLDED_STOCK_PHRASES: readonly string[] = [
  ...new Set(Object.values(stockPhrases.phrases).flat().map(foldForMatch)),
].filter(Boolean);

/**
 * The flags of each segment, in order (an empty list for a segment that looks fine).
 *
 * @example hallucinationFlags([{ start: 0, end: 2, text: 'Thanks for watching!' }]) // [['stock-phrase']]
 */
export function hallucinationFlags(segments: readonly TimedText[], options: FlagOptions = {}): HallucinationFlag[][] {
  return segments.map((segment, i) => {
    const flags: HallucinationFlag[] = [];
    if (!foldForMatch(segment.text)) return flags;
    if (loops(segment.text) || repeatsPrevious(segments, i)) flags.push('repetition');
    if (options.speech && speechShare(segment, options.speech) < MIN_SPEECH_SHARE) flags.push('no-speech');
    if (isStockPhrase(segment.text)) flags.push('stock-phrase');
    if (tooFast(segment)) flags.push('too-fast');
    return flags;
  });
}

/** A run of the same phrase, word for word, in one segment. */
export function loops(text: string): boolean {
  const tokens = words(text);
  for (let size = 1; size <= MAX_PHRASE_WORDS; size++) {
    const needed = size === 1 ? SINGLE_WORD_REPEATS : PHRASE_REPEATS;
    if (tokens.length < size * needed) break;
    for (let start = 0; start + size * needed <= tokens.length; start++) {
      let repeats = 1;
      while (start + size * (repeats + 1) <= tokens.length && sameRun(tokens, start, start + size * repeats, size))
        repeats++;
      if (repeats >= needed) return true;
    }
  }
  return false;
}

function sameRun(tokens: string[], a: number, b: number, size: number): boolean {
  for (let k = 0; k < size; k++) if (tokens[a + k] !== tokens[b + k]) return false;
  return true;
}

/**
 * The same text as the segment before: a whisper loop across segments. Text of three words or more
 * repeats once to count; shorter text ("Yes.") must repeat twice in a row, since people say it again.
 */
function repeatsPrevious(segments: readonly TimedText[], i: number): boolean {
  const folded = foldForMatch(segments[i].text);
  const same = (j: number): boolean => j >= 0 && foldForMatch(segments[j].text) === folded;
  if (!same(i - 1)) return false;
  return words(segments[i].text).length >= 3 || same(i - 2);
}

function speechShare(segment: TimedText, speech: readonly SpeechSpan[]): number {
  const length = segment.end - segment.start;
  if (length <= 0) return 0;
  let heard = 0;
  for (const span of speech)
    heard += Math.max(0, Math.min(segment.end, span.end) - Math.max(segment.start, span.start));
  return heard / length;
}

export function isStockPhrase(text: string): boolean {
  const folded = foldForMatch(text);
  if (!folded) return false;
  // A phrase said over and over is still only that phrase: count every time it occurs.
  return FOLDED_STOCK_PHRASES.some(
    (phrase) => phrase.length * (folded.split(phrase).length - 1) >= STOCK_SHARE * folded.length,
  );
}

/** Words (or CJK characters) per second beyond what any speaker reaches. */
export function tooFast(segment: TimedText): boolean {
  const seconds = segment.end - segment.start;
  const cjk = segment.text.match(CJK)?.length ?? 0;
  const otherWords = words(segment.text.replace(CJK, ' ')).length;
  if (cjk + otherWords === 0) return false;
  if (seconds <= 0) return true;
  // Mixed text spends each limit in proportion: 7 CJK characters and 4.5 words take a second at most.
  return (cjk / MAX_CJK_CHARACTERS_PER_SECOND + otherWords / MAX_WORDS_PER_SECOND) / seconds > 1;
}
