import type { OutputFormat, TranscriptFormat } from './openapi';
import type { SubtitleQuery } from './subtitle-query';

/** A TTS request after validation, with every default filled in. */
export interface TtsRequest {
  voiceId: string;
  text: string;
  language: string;
  inputFormat: 'txt' | 'srt' | 'vtt';
  outputFormat: OutputFormat;
  sampleRate: number;
  bitrateKbps: number | null;
  audioChannels: 'mono' | 'stereo';
  steps: number;
  guidanceScale: number;
  speed: number;
  duration: number | null;
  denoise: boolean;
  preprocessPrompt: boolean;
  postprocessOutput: boolean;
  trimSilence: boolean;
}

/** The options of an STT request (the form fields other than the file), validated, defaults filled in. */
export interface SttOptions {
  language: string;
  punctuation: boolean;
  cropStartSeconds?: number;
  cropEndSeconds?: number;
  diarizationEnabled: boolean;
  speakerCountMode: 'auto' | 'exact';
  speakerCount?: number;
}

export interface VoiceQuery {
  search?: string;
  languageCode?: string;
  gender?: 'female' | 'male' | 'neutral';
  scope: 'all' | 'builtin' | 'installed' | 'personal';
  sortBy: 'name' | 'languageCode' | 'createdAt';
  sortDirection: 'asc' | 'desc';
  page: number;
  limit: number;
}

export interface TranscriptQuery extends SubtitleQuery {
  format: TranscriptFormat;
}

export type Gender = 'female' | 'male' | 'neutral';
export type Availability = 'ready' | 'not_installed' | 'installing' | 'unavailable';

/** A voice as the API shows it. */
export interface Voice {
  id: string;
  name: string;
  languageCode: string;
  gender?: Gender;
  ageGroup?: 'child' | 'young' | 'adult' | 'senior';
  creationMode?: 'builtin' | 'downloaded' | 'cloned' | 'designed';
  availability: Availability;
  access: { scope: 'builtin' | 'personal' | 'shared'; canUse: boolean; license: string };
}

/**
 * What a succeeded TTS job reports in `result`: the engine builds it (src/engine/tts/run-tts.ts), the store
 * keeps it, the API, the editor and the relay read it. The member names are part of the API. (Type aliases
 * rather than interfaces, so a result still fits where a plain JSON object is expected.)
 */
export type TtsResult = {
  mediaType: string;
  outputFormat: OutputFormat;
  sampleRate: number;
  audioChannels: 'mono' | 'stereo';
  durationSeconds: number;
  bytes: number;
  /** Code points of the request's text. */
  characters: number;
  /** Text chunks (plain text) or cues (subtitles) synthesized. */
  chunks: number;
  /** The bitrate the encoder used (mp3, aac), null for lossless formats. */
  bitrateKbps: number | null;
  voice: { name: string; engine: string; languageCode: string };
  /** The language the text was spoken in. */
  language: string;
  speed: { value: number; method: 'engine-rate' | 'time-stretch' };
  /** The `duration` option's outcome; null when none was asked (or for subtitles, whose cues set the timing). */
  duration: {
    targetSeconds: number;
    naturalSeconds: number;
    stretchFactor: number;
    reachedTarget: boolean;
    achievedSeconds: number;
  } | null;
  /** Streamed speech (the OpenAI-compatible route): the audio was written as it was made. */
  live?: boolean;
  /** Loudness normalization; null when `postprocessOutput` is off. `measuredOn`: streamed speech set its gain from the first chunk. */
  loudness: {
    targetLufs: number;
    measuredLufs: number | null;
    gainDb: number;
    peakCeilingDbfs: number;
    measuredOn?: 'first-chunk';
  } | null;
  /** Subtitle narration only: how each cue fitted its time. */
  cues?: TtsCueReport[];
  /** Subtitle narration only: how many cues overran their time. */
  overranCues?: number;
  /** Only when lexicon entries matched the text: the entries applied and those the engine could not speak. */
  lexicon?: LexiconReport;
  /** Request options this job could not use, by name, each with the reason. */
  ignoredOptions: Record<string, string>;
};

/** One cue of a subtitle narration, in `TtsResult.cues`; times in seconds. */
export type TtsCueReport = {
  /** Position of the cue in the file, from 1. */
  index: number;
  start: number;
  end: number;
  speaker: string | null;
  /** What the cue could use, including the silence before the next cue. */
  slotSeconds: number;
  /** Length of the speech as synthesized (after `speed`), before any fitting. */
  speechSeconds: number;
  /** Extra speed-up applied to fit (1 = none). */
  speedFactor: number;
  /** Where the speech really starts and ends on the output. */
  placedStart: number;
  placedEnd: number;
  borrowedSeconds: number;
  overran: boolean;
  /** Seconds the speech ran past what the cue could use. */
  overrunSeconds: number;
};

/** What a succeeded STT job reports in `result` (src/engine/stt/run-stt.ts builds it). */
export type SttResult = {
  /** The language transcribed (the detected one for `auto`, `und` when there was no speech). */
  language: string;
  durationSeconds: number;
  segmentCount: number;
  /** Speakers found by diarization; null when diarization did not run. */
  speakerCount: number | null;
  transcriptFormats: TranscriptFormat[];
  /** File name of the whisper model used. */
  model: string;
  /**
   * What whisper was given beyond the contract's options (the OpenAI door's prompt, task and temperature);
   * only when something was. `prompt` tells whether an initial prompt was given, not the prompt itself.
   */
  whisper?: { prompt: boolean; task: 'transcribe' | 'translate'; temperature: number };
  /** Why `language` is not what was asked: `auto` on an English-only model, which cannot detect one. */
  languageNote?: string;
  /** An alignment job (POST /align/jobs): the script's text was timed to the media, not recognized. */
  aligned?: true;
  /** Alignment: the script's units (lines, paragraphs or cues) found in the media. */
  matchedCues?: number;
  /** Alignment: the units not found in the media (left out of the transcript), by number from 1 and text. */
  unmatchedCues?: Array<{ index: number; text: string }>;
  /** Alignment: present when an installed recognizer refined the aligned boundaries (only where its words agreed). */
  refinedBy?: AlignmentRefinement;
};

/** What refined an alignment: the recognizer, its model, how many cue boundaries moved and how many words agreed. */
export interface AlignmentRefinement {
  recognizer: 'whisper.cpp';
  model: string;
  movedBoundaries: number;
  agreedWords: number;
}

/** The `result` of a succeeded job: its kind tells which. */
export type JobResult = TtsResult | SttResult;

/** One pronunciation lexicon entry (src/contract/lexicon-schema.ts): `say` and/or espeak-ng `phonemes`. */
export type LexiconEntry = {
  text: string;
  say?: string;
  phonemes?: string;
  alphabet?: 'espeak';
  caseSensitive?: boolean;
  language?: string;
};

/** The lexicon document of GET/PUT /lexicon and `<data-dir>/lexicon.json`. */
export type LexiconDocument = { entries: LexiconEntry[] };

/** What a TTS job did with the lexicon entries its text matched. */
export type LexiconReport = { applied: string[]; skipped: { text: string; reason: string }[] };
