import type { SttOptions } from '../contract/types';
import type { HallucinationFlag } from './hallucination-flags';

/** One word with its time span in seconds, relative to the start of the original media. */
export interface TranscriptWord {
  start: number;
  end: number;
  text: string;
  /** The recognizer's confidence in 0–1; null when the backend does not report one per word. */
  probability: number | null;
  /** "Speaker N" when diarization ran and this word overlaps a speaker turn. */
  speaker?: string;
  /**
   * `estimated` when the recognizer gave no time of its own for this word and its span was shared out in
   * proportion to length; absent when the times are the recognizer's.
   */
  timing?: 'estimated';
}

/** Where a transcript's word times come from: the recognizer's token timestamps, estimates, or both. */
export type WordTiming = 'recognizer' | 'estimated' | 'mixed' | 'aligned';

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
  /** "Speaker N" when diarization ran. */
  speaker?: string;
  words: TranscriptWord[];
  /** What suggests the recognizer invented this segment (hallucination-flags.ts); absent when nothing does. */
  flags?: HallucinationFlag[];
}

/**
 * A finished transcript, as stored in the job's `transcript.json` and served as `json-full`.
 * Times are seconds rounded to milliseconds, relative to the original media even when it was cropped.
 */
export interface Transcript {
  text: string;
  language: string;
  durationSeconds: number;
  segments: TranscriptSegment[];
  /** The speaker labels in order of first appearance; null when diarization did not run. */
  speakers: string[] | null;
  options: SttOptions;
  /** The recognizer: whisper.cpp, or Parakeet TDT (run by whisper.cpp's parakeet.cpp). */
  backend: 'whisper.cpp' | 'parakeet' | 'espeak-ng-dtw';
  model: string;
  /** Absent in transcripts written before words were timed by the recognizer: their times are estimated. */
  wordTiming?: WordTiming;
}
