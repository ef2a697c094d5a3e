/** The languages whisper.cpp knows, and the one a given model decodes a request in. */
import { UserFacingError } from '../../engine-api/protocol';

/** The language codes whisper.cpp 1.9 knows (its `g_lang` table), in its order. */
export const WHISPER_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt ' +
    'la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ' +
    'ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su yue'
  ).split(' '),
);

/** BCP-47 codes that whisper spells differently. */
const ALIASES: Readonly<Record<string, string>> = { iw: 'he', jv: 'jw', nb: 'no', fil: 'tl' };

/**
 * The whisper language for an API language: `auto` stays `auto`; a BCP-47 tag becomes its primary
 * subtag (`en-US` → `en`). Null when whisper does not know the language.
 * @example toWhisperLanguage('pt-BR') === 'pt'
 */
export function toWhisperLanguage(language: string): string | null {
  const lower = language.trim().toLowerCase();
  if (lower === 'auto') return 'auto';
  const primary = lower.split('-')[0] ?? '';
  const code = ALIASES[primary] ?? primary;
  return WHISPER_LANGUAGES.has(code) ? code : null;
}

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
