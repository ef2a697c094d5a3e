/**
 * One interface over every synthesizer (espeak-ng, Flite, SVOX Pico, sherpa-onnx): mono 16-bit samples at
 * the engine's own rate for a piece of text, plus what the engine did with the options that only some
 * engines understand (speed, language, steps, guidanceScale).
 */

export interface SpeechEngine {
  /** The `backend` of the job. */
  readonly backend: string;
  readonly sampleRate: number;
  /** True when `speed` is the engine's own speaking rate; otherwise the caller time-stretches. */
  readonly nativeSpeed: boolean;
  synthesize(text: string): Promise<Int16Array>;
  /** True when `stream` reports each word's start to its `onWord` (espeak-ng's word events). */
  readonly wordEvents?: boolean;
  /**
   * Like synthesize, but hands the samples over in pieces as they are made, so the next stage can work
   * while the engine still speaks. Engines that cannot stream leave it out. Engines with `wordEvents` tell
   * `onWord` where each word starts, in seconds from the start of this call's samples.
   */
  stream?(
    text: string,
    onSamples: (samples: Int16Array) => void,
    onWord?: (word: { text: string; seconds: number }) => void,
  ): Promise<void>;
  /**
   * Speaks one run of SSML speech with what the engine takes itself beyond text (espeak-ng: phonemes and
   * pitch). Engines without it get text only, and the SSML recorder reports phonemes and pitch as ignored.
   */
  speakStyled?(piece: StyledPiece): Promise<StyledSpeech>;
  dispose?(): void;
}

/** A run of SSML speech: the written text, its phonemes when `<phoneme>` gave them, a pitch factor (1 = the voice's). */
export interface StyledPiece {
  text: string;
  phonemes?: { alphabet: 'ipa' | 'x-sampa'; ph: string };
  pitch: number;
}

export interface StyledSpeech {
  samples: Int16Array;
  /** False when the phonemes could not be used and the written text was spoken. */
  usedPhonemes: boolean;
}

export interface EngineSettings {
  speed: number;
  /** The request's `language`; `auto` keeps the voice's own. */
  language: string;
  steps: number;
  guidanceScale: number;
}

/** What the engine made of the options that not every engine takes; `null` means ignored. */
export interface EngineNotes {
  /** The language the engine speaks, when the request overrode it and the engine could follow. */
  language: string | null;
  steps: number | null;
  guidanceScale: number | null;
}

export interface OpenedEngine {
  engine: SpeechEngine;
  notes: EngineNotes;
}

/** Float samples (-1…1) as 16-bit integers, clipped. */
export function floatToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const value = Math.round(samples[i] * 32767);
    out[i] = value > 32767 ? 32767 : value < -32768 ? -32768 : value;
  }
  return out;
}

/** Whether a requested language differs from the voice's (`en` asks for nothing new from an `en-US` voice). */
export function asksForOtherLanguage(requested: string, voiceLanguage: string): boolean {
  if (requested.toLowerCase() === 'auto') return false;
  const want = requested.toLowerCase();
  const have = voiceLanguage.toLowerCase();
  return !(have === want || have.startsWith(`${want}-`));
}
