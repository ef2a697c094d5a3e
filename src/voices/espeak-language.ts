/** Which espeak-ng voice speaks a language: for synthesis in another language and for the aligner's rendition. */
import espeakVoices from './espeak-voices.json';

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
