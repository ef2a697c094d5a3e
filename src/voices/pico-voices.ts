/**
 * SVOX Pico's six voices. The engine ships with Speech Studio; each voice's lingware (two files, from the
 * Android Open Source Project, Apache-2.0) does not, and is looked for in `<data-dir>/models/tts/svox-pico/`
 * each time the library is read, so a voice becomes ready as soon as its files are there.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Voice } from '../contract/types';
import { indexed, type IndexedEntry } from './voice-entry';
import { voiceIdFor } from './voice-id';
import type { VoiceFiles } from './voice-files';

export const PICO_VOICES = [
  { language: 'en-US', name: 'English (America) – SVOX Pico', signal: 'en-US_lh0_sg.bin' },
  { language: 'en-GB', name: 'English (Great Britain) – SVOX Pico', signal: 'en-GB_kh0_sg.bin' },
  { language: 'de-DE', name: 'German – SVOX Pico', signal: 'de-DE_gl0_sg.bin' },
  { language: 'es-ES', name: 'Spanish (Spain) – SVOX Pico', signal: 'es-ES_zl0_sg.bin' },
  { language: 'fr-FR', name: 'French (France) – SVOX Pico', signal: 'fr-FR_nk0_sg.bin' },
  { language: 'it-IT', name: 'Italian – SVOX Pico', signal: 'it-IT_cm0_sg.bin' },
] as const;

export function picoEntries(files: VoiceFiles): IndexedEntry[] {
  const dir = files.ttsDir('svox-pico');
  return PICO_VOICES.map(({ language, name, signal }) => {
    const textAnalysis = path.join(dir, `${language}_ta.bin`);
    const signalGeneration = path.join(dir, signal);
    const ready = existsSync(textAnalysis) && existsSync(signalGeneration);
    const voice: Voice = {
      id: voiceIdFor('svox-pico', language),
      name,
      languageCode: language,
      gender: 'female',
      ageGroup: 'adult',
      creationMode: 'downloaded',
      availability: ready ? 'ready' : files.installing('svox-pico') ? 'installing' : 'not_installed',
      access: { scope: 'shared', canUse: true, license: 'Apache-2.0' },
    };
    return indexed(
      {
        voice,
        engine: 'svox-pico',
        engineVoiceId: language,
        createdAt: ready ? files.installedAt(signalGeneration) : 0,
        ref: {
          engine: 'svox-pico',
          engineVoiceId: language,
          languageCode: language,
          name,
          model: { textAnalysis, signalGeneration },
        },
      },
      ['pico', 'svox'],
    );
  });
}
