/** A voice of the library: what GET /voices shows, and what a job needs to speak with it. */
import type { Voice } from '../contract/types';
import type { TtsEngineName, TtsVoiceRef } from './voice-ref';
import { foldForSearch, searchTermsFor } from './voice-search';

export interface VoiceEntry {
  voice: Voice;
  engine: TtsEngineName;
  engineVoiceId: string;
  /** Milliseconds since the epoch; 0 for voices that ship with Speech Studio or are not installed. */
  createdAt: number;
  /** What a job with this voice hands to the engine (model paths resolved). */
  ref: TtsVoiceRef;
}

/** Only a ready voice can speak: the rest are still downloading, not installed, or missing files. */
export const isReadyVoice = (voice: Pick<Voice, 'availability'>): boolean => voice.availability === 'ready';

export interface IndexedEntry extends VoiceEntry {
  searchTerms: string[];
}

/** Adds the search terms of a voice: its name, language code and the language's names. */
export function indexed(entry: VoiceEntry, extraTerms: string[] = []): IndexedEntry {
  return {
    ...entry,
    searchTerms: [...searchTermsFor(entry.voice.name, entry.voice.languageCode), ...extraTerms.map(foldForSearch)],
  };
}
