/** espeak-ng as a SpeechEngine: its own rate for `speed`, and any of its languages for `language`. */
import { espeakVoiceForLanguage } from '../../../voices/espeak-language';
import type { TtsVoiceRef } from '../../../engine-api/protocol';
import { concatSamples } from '../../audio/samples';
import { escapeForSsml, espeakRateForSpeed, openEspeakVoice } from './espeak';
import { espeakPhonemes } from './espeak-phonemes';
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
      wordEvents: true,
      synthesize: async (text) => concatSamples(espeak.synthesize(text)),
      stream: async (text, onSamples, onWord) =>
        espeak.synthesizeTo(
          text,
          onSamples,
          onWord && ((word) => onWord({ text: word.text, seconds: word.startSeconds })),
        ),
      speakStyled: async ({ text, phonemes, pitch }) => {
        const marked = phonemes ? espeakPhonemes(phonemes.alphabet, phonemes.ph) : undefined;
        let markup = marked ?? escapeForSsml(text);
        // espeak's own SSML takes a relative pitch in percent.
        if (pitch !== 1)
          markup = `<prosody pitch="${pitch > 1 ? '+' : '-'}${Math.round(Math.abs(pitch - 1) * 100)}%">${markup}</prosody>`;
        return { samples: concatSamples(espeak.synthesizeMarkup(markup)), usedPhonemes: marked !== undefined };
      },
    },
    notes: { language, steps: null, guidanceScale: null },
  };
}
