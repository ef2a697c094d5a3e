/** The language a given whisper model decodes a request in: an English-only model decodes English or refuses. */
import { UserFacingError } from '../../engine-api/protocol';

/**
 * The language to hand whisper for a request (`auto` or a whisper code from toWhisperLanguage). An
 * English-only model has no language tokens: it decodes English whatever it is told (as whisper.cpp's own
 * CLI does, `auto` becomes `en`), so any other language is refused rather than answered in English.
 * @example decodingLanguage('auto', { multilingual: false, modelName: 'ggml-base.en.bin' }) === 'en'
 */
export function decodingLanguage(requested: string, model: { multilingual: boolean; modelName: string }): string {
  if (model.multilingual || requested === 'en') return requested;
  if (requested === 'auto') return 'en';
  throw new UserFacingError(
    `The speech-to-text model ${model.modelName} is English-only, so it cannot transcribe "${requested}"; ask for en, or install a multilingual model.`,
  );
}
