/** Turns whisper.cpp's one-token pieces (token timestamps with `maxLen: 1`) into words with the recognizer's times. */
import type { WhisperSegment } from './whisper-session';

/** A word as whisper wrote it, with the time whisper gave its tokens (milliseconds of the audio it saw). */
export interface RecognizedWord {
  /** Leading space included, as whisper spaced it (none in scripts written without spaces). */
  text: string;
  startMs: number;
  endMs: number;
  /** True when whisper timed a longer stretch and this word's share of it had to be estimated. */
  estimated: boolean;
}

// Byte-level tokens can cut a character in two; the binding then hands over U+FFFD for the loose bytes.
const BROKEN = '\uFFFD';

// Scripts written without spaces between words: each token there is a word of its own.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;

/**
 * Merges pieces into words: a piece that starts with a space starts a word, any other piece (`icans`, `,`)
 * continues the word before it, except in scripts without spaces. Pieces whose characters were cut in two
 * are repaired from `fullText` (whisper's whole text, joined before the cut bytes were lost): the repaired
 * run keeps the span its pieces had. Returns null when the pieces cannot be lined up with the text.
 * @example
 * wordsFromPieces([{ text: ' Amer', startMs: 0, endMs: 300 }, { text: 'icans,', startMs: 300, endMs: 700 }], ' Americans,')
 * // [{ text: ' Americans,', startMs: 0, endMs: 700, estimated: false }]
 */
export function wordsFromPieces(pieces: readonly WhisperSegment[], fullText: string): RecognizedWord[] | null {
  const repaired = repairPieces(pieces, fullText);
  if (!repaired) return null;
  const words: RecognizedWord[] = [];
  for (const piece of repaired) {
    if (piece.text.length === 0) continue;
    const previous = words.at(-1);
    if (previous && previous.text.trim().length === 0) {
      // A lone space belongs to the word after it, which starts when that word does.
      words[words.length - 1] = { ...piece, text: previous.text + piece.text };
    } else if (previous && continuesWord(previous.text, piece.text)) {
      previous.text += piece.text;
      previous.endMs = Math.max(previous.endMs, piece.endMs);
      previous.estimated ||= piece.estimated;
    } else {
      words.push({ ...piece, startMs: piece.startMs, endMs: Math.max(piece.startMs, piece.endMs) });
    }
  }
  return splitRunsOfWords(words);
}

function continuesWord(before: string, piece: string): boolean {
  if (/^\s/u.test(piece)) return false;
  return !UNSPACED.test(Array.from(piece)[0] ?? '') && !UNSPACED.test(Array.from(before).at(-1) ?? '');
}

/** Pieces with their text made whole again; a run of cut pieces becomes one piece over the run's span. */
function repairPieces(pieces: readonly WhisperSegment[], fullText: string): RecognizedWord[] | null {
  const plain = pieces.map(({ text, startMs, endMs }) => ({ text, startMs, endMs, estimated: false }));
  if (!pieces.some((piece) => piece.text.includes(BROKEN))) return plain;
  const repaired: RecognizedWord[] = [];
  let cursor = 0;
  let run: WhisperSegment[] = [];
  const closeRun = (until: number): boolean => {
    if (run.length === 0) return true;
    const text = fullText.slice(cursor, until);
    if (text.length === 0) return false;
    repaired.push({ text, startMs: run[0].startMs, endMs: run[run.length - 1].endMs, estimated: false });
    run = [];
    cursor = until;
    return true;
  };
  for (const piece of pieces) {
    if (piece.text.includes(BROKEN)) {
      run.push(piece);
      continue;
    }
    // A run before this piece holds at least one character, so the piece starts after the cursor.
    const at = fullText.indexOf(piece.text, run.length > 0 ? cursor + 1 : cursor);
    if (at < 0 || (run.length === 0 && at !== cursor) || !closeRun(at)) return null;
    repaired.push({ ...piece, estimated: false });
    cursor = at + piece.text.length;
  }
  if (!closeRun(fullText.length)) return null;
  return repaired;
}

/**
 * A repaired run can hold several words (`' 東京 タワー'`) under one span: those words share the span in
 * proportion to their length and say that their times are estimated.
 */
function splitRunsOfWords(words: readonly RecognizedWord[]): RecognizedWord[] {
  return words.flatMap((word) => {
    const parts = word.text.match(/\s*\S+/gu) ?? [word.text];
    if (parts.length <= 1) return [word];
    const total = parts.reduce((sum, part) => sum + part.trim().length, 0);
    let consumed = 0;
    return parts.map((part) => {
      const startMs = word.startMs + ((word.endMs - word.startMs) * consumed) / total;
      consumed += part.trim().length;
      const endMs = word.startMs + ((word.endMs - word.startMs) * consumed) / total;
      return { text: part, startMs, endMs, estimated: true };
    });
  });
}
