import { roundToMilliseconds } from '../../subtitles/timestamps';
import type { TranscriptSegment, WordTiming } from '../../subtitles/types';
import { estimateWordTimes } from '../../subtitles/word-timing';
import { stripPunctuation } from './strip-punctuation';
import type { SpeechEdge } from './speech-timeline';
import type { WhisperSegment } from './whisper-session';

export interface SegmentPlacement {
  /**
   * Maps a time in the audio whisper saw to a time in the decoded part (identity without VAD); with an
   * edge, a time in a pause VAD cut out goes to the speech beside it.
   */
  toDecodedSeconds: (seconds: number, edge?: SpeechEdge) => number;
  /** Where the decoded part starts in the original media (the crop start, else 0). */
  offsetSeconds: number;
  /** Where the decoded part ends in the original media. */
  endSeconds: number;
  punctuation: boolean;
}

export interface BuiltSegments {
  text: string;
  segments: TranscriptSegment[];
  wordTiming: WordTiming;
}

// whisper.cpp's timestamp resolution: no segment is shorter.
export const MIN_SEGMENT_SECONDS = 0.01;

/**
 * Turns whisper's segments into transcript segments in the original media's time: mapped back through
 * VAD, shifted by the crop start, clamped to the decoded part (whisper can place timestamps past the end),
 * never overlapping, never empty (text left with no room of its own joins the segment before). Words get
 * times in proportion to their length and are marked `estimated`: this is the path for segments without
 * token times (word-segments.ts has the one with them).
 */
export function buildSegments(whisperSegments: readonly WhisperSegment[], placement: SegmentPlacement): BuiltSegments {
  const { offsetSeconds, endSeconds } = placement;
  const clean = (text: string): string => (placement.punctuation ? text.trim() : stripPunctuation(text));
  const place = (ms: number, edge: SpeechEdge): number =>
    Math.min(endSeconds, Math.max(offsetSeconds, offsetSeconds + placement.toDecodedSeconds(ms / 1000, edge)));

  const spans: Array<{ start: number; end: number; text: string }> = [];
  const ordered = [...whisperSegments].sort((a, b) => a.startMs - b.startMs);
  for (const segment of ordered) {
    const text = clean(segment.text);
    if (text.length === 0) continue;
    const previous = spans.at(-1);
    const start = Math.max(place(segment.startMs, 'start'), previous?.end ?? offsetSeconds);
    const end = Math.max(start, place(segment.endMs, 'end'));
    if (end - start >= MIN_SEGMENT_SECONDS) {
      spans.push({ start, end, text });
    } else if (previous) {
      previous.text = `${previous.text} ${text}`;
      previous.end = Math.max(previous.end, end);
    } else if (endSeconds - offsetSeconds >= MIN_SEGMENT_SECONDS) {
      const shifted = Math.min(start, endSeconds - MIN_SEGMENT_SECONDS);
      spans.push({ start: shifted, end: shifted + MIN_SEGMENT_SECONDS, text });
    }
  }

  const segments = spans.map(({ start, end, text }) => ({
    start: roundToMilliseconds(start),
    end: roundToMilliseconds(end),
    text,
    words: estimateWordTimes(text, start, end).map((word) => ({
      start: roundToMilliseconds(word.start),
      end: roundToMilliseconds(word.end),
      text: word.text,
      probability: null,
      timing: 'estimated' as const,
    })),
  }));
  // whisper's segment texts carry their own leading spaces (none in Chinese or Japanese), so joining them
  // as they are gives the right spacing for every script.
  const fullText = ordered.map((segment) => segment.text).join('');
  return { text: clean(fullText).replace(/\s+/gu, ' '), segments, wordTiming: 'estimated' };
}
