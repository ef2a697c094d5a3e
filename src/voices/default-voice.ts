/**
 * The one default-voice rule, for every door that speaks without being told a voice (the editor, MCP's
 * narrate, the audiobook export): the configured voice when it is ready, else the best ready voice (never a
 * cloned or designed voice of the user's own, which speaks only when chosen) of the
 * language (src/voices/best-voice.ts), else of English; for a text whose own language is known (a book's),
 * only a voice of that language. The Local API's POST /tts/jobs has no default: the
 * contract requires `voiceId`.
 */
import { ApiError } from '../contract/errors';
import { bestReadyVoice } from './best-voice';
import type { VoiceEntry } from './library';
import { isOwn } from './own-voices';
import { isReadyVoice } from './voice-entry';

export interface DefaultVoiceSource {
  get(id: string): VoiceEntry | undefined;
  entries(): readonly VoiceEntry[];
}

export interface DefaultVoiceWish {
  /** A voice id the user configured (the editor's setting); ignored while that voice is not ready. */
  configured?: string;
  /** The language to read in, e.g. the editor's display language; English when absent. */
  language?: string;
  /**
   * The text is in `language` (a book's own language), so a voice of another language would only garble it:
   * no fallback to English, and VOICE_NOT_READY naming the language when no ready voice speaks it.
   */
  textLanguage?: boolean;
}

/** `Khmer (km)`, or the tag alone when the runtime has no name for it. */
function languageLabel(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name.toLowerCase() !== tag.toLowerCase() ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

/**
 * The voice to speak with when none was asked for; VOICE_NOT_READY when no voice at all is ready.
 * @example defaultVoice(library, { language: 'de' }).voice.id
 */
export function defaultVoice(voices: DefaultVoiceSource, wish: DefaultVoiceWish = {}): VoiceEntry {
  const configured = wish.configured ? voices.get(wish.configured) : undefined;
  if (configured && isReadyVoice(configured.voice)) return configured;
  // A voice of the user's own (a cloned person) speaks only when chosen, however well it ranks.
  const offered = voices.entries().filter((entry) => !isOwn(entry));
  const best = bestReadyVoice(offered, wish.language ?? 'en', !(wish.textLanguage && wish.language));
  if (best) return best;
  if (wish.textLanguage && wish.language)
    throw new ApiError(
      'VOICE_NOT_READY',
      `No installed voice speaks ${languageLabel(wish.language)}, the language of the text: install a voice of that language (from the model catalog, or espeak-ng, which speaks about a hundred languages), or choose a voice.`,
    );
  throw new ApiError('VOICE_NOT_READY', 'No voice is installed.');
}
