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
