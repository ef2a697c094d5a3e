/**
 * The engine's view of a dub (Dub Media…, `cli.js dub`): what the job hands the engine, and what the engine
 * answers: the dubbed copy of the video, the voice each speaker got, and the cues that did not fit.
 */
import type { SubtitleStyle } from '../contract/subtitle-style';
import type { FlaggedCue } from '../translate/translate-cues';
import type { DubVoiceChoices, SpeakerGender } from '../voices/dub-voices';

/** The original audio kept under the dub, lowered while the dub speaks (`duck`), or left out (`replace`). */
export type DubMix = 'duck' | 'replace';
export const DUB_MIXES: readonly DubMix[] = ['duck', 'replace'];

export type { DubVoiceChoices, SpeakerGender };

export interface DubTask {
  kind: 'dub';
  /** The user's video, read only. */
  videoPath: string;
  /** The subtitles to dub from (a copy in the job's folder); absent: the video is transcribed with diarization. */
  subtitlesPath?: string;
  subtitlesFormat?: 'srt' | 'vtt';
  /** The whisper (or Parakeet) model that transcribes when no subtitles are given. */
  sttModelPath?: string;
  /** The job's folder: the transcript, translation and narration are made here. */
  workDir: string;
  /** Where the dubbed copy goes (written as `<outputPath>.partial` and renamed at the end). */
  outputPath: string;
  /** The GGUF language model that translates. */
  modelPath: string;
  to: string;
  from?: string;
  mix: DubMix;
  voices: DubVoiceChoices;
  style: SubtitleStyle;
}

/** Who speaks in the dub, and with which voice. */
export interface DubSpeaker {
  /** The speaker's label in the transcript or subtitles (`Speaker 1`, `<v Ann>`); `(unnamed)` for cues without one. */
  label: string;
  gender: SpeakerGender;
  /** The speaker's median pitch in the original audio; null when too little voiced speech was found. */
  medianPitchHz: number | null;
  /** The voice's name and engine. */
  voice: string;
  engine: string;
  /** `library`: chosen by language and gender; `cloned`: made from the speaker's own segments (ZipVoice). */
  source: 'library' | 'cloned';
}

/** A cue whose speech did not fit its time even sped up: it runs into the next cue (or past the last one's end). */
export interface DubOverrun {
  /** Position of the cue, from 1. */
  index: number;
  start: number;
  end: number;
  speaker: string | null;
  overrunSeconds: number;
}

/** Seconds each stage took (wall time in the engine). */
export interface DubStageSeconds {
  transcribe: number;
  translate: number;
  voices: number;
  narrate: number;
  mix: number;
}

export interface DubResult {
  outputPath: string;
  /** The dubbed copy's length, as ffprobe reads it. */
  durationSeconds: number;
  cues: number;
  /** True when the video was transcribed (no subtitles were given). */
  transcribed: boolean;
  speakers: DubSpeaker[];
  /** Cues spoken faster than synthesized so they fit, from 1. */
  spedUp: number[];
  /** Cues that could not fit even sped up. */
  overruns: DubOverrun[];
  translation: { shortened: number[]; flagged: FlaggedCue[]; model: string; tokens: number };
  /** The new audio track: its ISO 639-2 language, how it was mixed, its codec. */
  audioTrack: { language: string; mix: DubMix; codec: string };
  stageSeconds: DubStageSeconds;
}
