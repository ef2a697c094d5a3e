/** Transcript segments from whisper's timed tokens: words placed in the original media's time, grouped into sentences. */
import { roundToMilliseconds } from '../../subtitles/timestamps';
import type { TranscriptSegment, TranscriptWord, WordTiming } from '../../subtitles/types';
import { buildSegments, MIN_SEGMENT_SECONDS, type BuiltSegments, type SegmentPlacement } from './build-segments';
import { wordsFromPieces, type RecognizedWord } from './recognized-words';
import { stripPunctuation } from './strip-punctuation';
import type { WhisperSegment } from './whisper-session';

// A segment ends after a sentence's last word, at a pause this long, or before it would grow past the cap
// (whisper's own segments, lost when it is asked for one token per segment, were about that long).
const SENTENCE_END = /[.!?。！？…‽]["'”’»)\]]*$/u;
const PAUSE_SECONDS = 1;
const MAX_SEGMENT_SECONDS = 15;

interface PlacedWord {
  raw: string;
  start: number;
  end: number;
  estimated: boolean;
}

/**
 * The transcript's segments from what whisper returned with token timestamps and one token per piece: the
 * pieces become words with the recognizer's times (see recognized-words.ts). When the pieces cannot be
 * lined up with whisper's text, all of it becomes one span whose words are estimated.
 */
export function segmentsFromPieces(
  pieces: readonly WhisperSegment[],
  fullText: string,
  placement: SegmentPlacement,
): BuiltSegments {
  const words = wordsFromPieces(pieces, fullText);
  if (words) return buildWordSegments(words, fullText, placement);
  const startMs = Math.min(...pieces.map((piece) => piece.startMs));
  const endMs = Math.max(...pieces.map((piece) => piece.endMs));
  return buildSegments(pieces.length === 0 ? [] : [{ text: fullText, startMs, endMs }], placement);
}

/**
 * Places recognized words in the original media's time (through the VAD timeline, so a word never starts
 * or ends inside a pause VAD cut out; shifted by the crop start; clamped to the decoded part; never
 * overlapping) and groups them into segments at sentence ends, long pauses and the length cap.
 */
export function buildWordSegments(
  words: readonly RecognizedWord[],
  fullText: string,
  placement: SegmentPlacement,
): BuiltSegments {
  const clean = (text: string): string => (placement.punctuation ? text.trim() : stripPunctuation(text));
  const placed = placeWords(words, placement);
  const segments: TranscriptSegment[] = [];
  for (const group of groupWords(placed)) {
    const kept = group.map((word) => ({ word, text: clean(word.raw) })).filter(({ text }) => text.length > 0);
    const text = clean(group.map((word) => word.raw).join(''));
    if (kept.length === 0 || text.length === 0) continue;
    const start = kept[0].word.start;
    const end = Math.max(kept[kept.length - 1].word.end, start + MIN_SEGMENT_SECONDS);
    segments.push({
      start: roundToMilliseconds(start),
      end: roundToMilliseconds(Math.min(end, Math.max(placement.endSeconds, start))),
      text,
      words: kept.map(({ word, text: wordText }) => transcriptWord(word, wordText)),
    });
  }
  const estimated = segments.flatMap((segment) => segment.words).filter((word) => word.timing === 'estimated').length;
  const total = segments.reduce((sum, segment) => sum + segment.words.length, 0);
  const wordTiming: WordTiming = estimated === 0 ? 'recognizer' : estimated === total ? 'estimated' : 'mixed';
  return { text: clean(fullText).replace(/\s+/gu, ' '), segments, wordTiming };
}

function transcriptWord(word: PlacedWord, text: string): TranscriptWord {
  return {
    start: roundToMilliseconds(word.start),
    end: roundToMilliseconds(word.end),
    text,
    // The binding (whisper.node 1.1.3) does not hand over token probabilities.
    probability: null,
    ...(word.estimated ? { timing: 'estimated' as const } : {}),
  };
}

function placeWords(words: readonly RecognizedWord[], placement: SegmentPlacement): PlacedWord[] {
  const { offsetSeconds, endSeconds } = placement;
  const clamp = (seconds: number): number => Math.min(endSeconds, Math.max(offsetSeconds, seconds));
  let previousEnd = offsetSeconds;
  return [...words]
    .sort((a, b) => a.startMs - b.startMs)
    .map((word) => {
      const start = Math.max(
        previousEnd,
        clamp(offsetSeconds + placement.toDecodedSeconds(word.startMs / 1000, 'start')),
      );
      const end = Math.max(start, clamp(offsetSeconds + placement.toDecodedSeconds(word.endMs / 1000, 'end')));
      previousEnd = end;
      return { raw: word.text, start, end, estimated: word.estimated };
    });
}

function groupWords(words: readonly PlacedWord[]): PlacedWord[][] {
  const groups: PlacedWord[][] = [];
  let current: PlacedWord[] = [];
  for (const word of words) {
    const first = current[0];
    const last = current.at(-1);
    const pause = last !== undefined && word.start - last.end >= PAUSE_SECONDS;
    const tooLong = first !== undefined && word.end - first.start > MAX_SEGMENT_SECONDS;
    if (current.length > 0 && (pause || tooLong)) {
      groups.push(current);
      current = [];
    }
    current.push(word);
    if (SENTENCE_END.test(word.raw.trim())) {
      groups.push(current);
      current = [];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
