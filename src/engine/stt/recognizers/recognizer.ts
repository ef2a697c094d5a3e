/** What the STT job needs of a recognizer (whisper.cpp or Parakeet), so both feed the same VAD, timeline and writers. */
import type { WhisperHints } from '../../../engine-api/protocol';
import type { SpeechRange } from '../speech-timeline';
import type { WhisperSegment } from '../whisper-session';

export interface RecognizeRequest {
  /** 16 kHz mono PCM: the speech VAD kept, back to back, or all of the audio. */
  samples: Int16Array;
  /** The stretches of speech in `samples`, in seconds of `samples` (one for all of it without VAD). */
  stretches: readonly SpeechRange[];
  threads: number;
  /** Fraction of the recognition done, 0–1. */
  onProgress: (fraction: number) => void;
  /** Pieces as they are recognized, before the whole run ends, in milliseconds of `samples`. */
  onPieces?: (pieces: WhisperSegment[]) => void;
  /** The OpenAI door's decoding hints; admission lets them through only to a recognizer that honours them. */
  hints?: WhisperHints;
}

export interface Recognition {
  /** The language decoded: the one asked for, the detected one for `auto`, or `und` when nothing told it. */
  language: string;
  /** Timed pieces in milliseconds of the samples. */
  pieces: WhisperSegment[];
  /** The whole text, as the recognizer wrote it. */
  text: string;
  /**
   * `tokens`: one token per piece with the recognizer's own times (words get the recognizer's timing);
   * `spans`: longer spans, whose words get times estimated in proportion to their length.
   */
  timing: 'tokens' | 'spans';
}

export interface SttRecognizer {
  /** The job's `backend`: the engine, and for Parakeet the model file. */
  readonly backend: string;
  /** The transcript's `backend` field. */
  readonly engine: 'whisper.cpp' | 'parakeet';
  /** The language it decodes in: a code, or `auto` when it detects it first (the `detecting_language` phase). */
  readonly language: string;
  recognize(request: RecognizeRequest): Promise<Recognition>;
}
