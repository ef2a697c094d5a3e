/**
 * Voices that ship inside Speech Studio's packages and need no download: every espeak-ng voice (from the
 * generated espeak-voices.json) and the four English voices compiled into Flite.
 */
import type { Voice } from '../contract/types';
import espeakVoices from './espeak-voices.json';
import { indexed, type IndexedEntry } from './voice-entry';
import { voiceIdFor } from './voice-id';

const ESPEAK_LICENSE = 'GPL-3.0-or-later';
/** Flite's own licence: BSD-style, four conditions (notice, marked changes, authors' names, no endorsement). */
const FLITE_LICENSE = 'Flite (BSD-style, CMU)';

export const FLITE_VOICE_INFO = [
  { id: 'slt', name: 'English (America) – Flite SLT', languageCode: 'en-US', gender: 'female' },
  { id: 'rms', name: 'English (America) – Flite RMS', languageCode: 'en-US', gender: 'male' },
  { id: 'kal16', name: 'English (America) – Flite KAL', languageCode: 'en-US', gender: 'male' },
  { id: 'awb', name: 'English (Scotland) – Flite AWB', languageCode: 'en-GB-scotland', gender: 'male' },
] as const;

function builtin(voice: Omit<Voice, 'availability' | 'access' | 'creationMode'>, license: string): Voice {
  return {
    ...voice,
    creationMode: 'builtin',
    availability: 'ready',
    access: { scope: 'builtin', canUse: true, license },
  };
}

/** espeak-ng declares no gender or age for its voices, so none is made up. */
export function espeakEntries(): IndexedEntry[] {
  return espeakVoices.map(({ identifier, name, languageCode }) =>
    indexed({
      voice: builtin({ id: voiceIdFor('espeak-ng', identifier), name, languageCode }, ESPEAK_LICENSE),
      engine: 'espeak-ng',
      engineVoiceId: identifier,
      createdAt: 0,
      ref: { engine: 'espeak-ng', engineVoiceId: identifier, languageCode, name },
    }),
  );
}

export function fliteEntries(): IndexedEntry[] {
  return FLITE_VOICE_INFO.map(({ id, name, languageCode, gender }) =>
    indexed(
      {
        voice: builtin({ id: voiceIdFor('flite', id), name, languageCode, gender, ageGroup: 'adult' }, FLITE_LICENSE),
        engine: 'flite',
        engineVoiceId: id,
        createdAt: 0,
        ref: { engine: 'flite', engineVoiceId: id, languageCode, name },
      },
      ['flite'],
    ),
  );
}
