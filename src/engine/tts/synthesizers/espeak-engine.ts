/** espeak-ng as a SpeechEngine: its own rate for `speed`, and any of its languages for `language`. */
import { espeakVoiceForLanguage } from '../../../voices/espeak-language';
import type { TtsVoiceRef } from '../../protocol';
import { concatSamples } from '../../audio/samples';
import { espeakRateForSpeed, openEspeakVoice } from './espeak';
import { asksForOtherLanguage, type EngineSettings, type OpenedEngine } from './synthesizer';

export async function openEspeakEngine(voice: TtsVoiceRef, settings: EngineSettings): Promise<OpenedEngine> {
  let identifier = voice.engineVoiceId;
  let language: string | null = null;
  if (asksForOtherLanguage(settings.language, voice.languageCode)) {
    const other = espeakVoiceForLanguage(settings.language);
    if (other) {
      identifier = other.identifier;
      language = other.languageCode;
    }
  }
  const espeak = await openEspeakVoice(identifier, espeakRateForSpeed(settings.speed));
  return {
    engine: {
      backend: 'espeak-ng',
      sampleRate: espeak.sampleRate,
      nativeSpeed: true,
      synthesize: async (text) => concatSamples(espeak.synthesize(text)),
      stream: async (text, onSamples) => espeak.synthesizeTo(text, onSamples),
    },
    notes: { language, steps: null, guidanceScale: null },
  };
}
