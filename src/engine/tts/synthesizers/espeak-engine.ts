/** espeak-ng as a SpeechEngine: its own rate for `speed`, and any of its languages for `language`. */
import espeakVoices from '../../../voices/espeak-voices.json';
import type { TtsVoiceRef } from '../../protocol';
import { concatSamples } from '../../audio/samples';
import { espeakRateForSpeed, openEspeakVoice } from './espeak';
import { asksForOtherLanguage, type EngineSettings, type OpenedEngine } from './synthesizer';

/**
 * The espeak voice for a language tag: the exact tag first, then the voice whose language is the tag's
 * primary language (`de-AT` → German), then any voice of that language. Undefined when espeak has none.
 */
export function espeakVoiceForLanguage(language: string): { identifier: string; languageCode: string } | undefined {
  const want = language.toLowerCase();
  const primary = want.split('-')[0];
  return (
    espeakVoices.find((voice) => voice.languageCode.toLowerCase() === want) ??
    espeakVoices.find((voice) => voice.languageCode.toLowerCase() === primary) ??
    espeakVoices.find((voice) => voice.languageCode.toLowerCase().split('-')[0] === primary)
  );
}

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
