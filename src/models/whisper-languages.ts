/** The languages whisper.cpp knows, and how an API language tag maps onto them (admission and the engine both ask). */
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
