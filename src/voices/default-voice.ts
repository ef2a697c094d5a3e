/**
 * The one default-voice rule, for every door that speaks without being told a voice (the editor, MCP's
 * narrate, the audiobook export): the configured voice when it is ready, else the best ready voice of the
 * language (src/voices/best-voice.ts), else of English. The Local API's POST /tts/jobs has no default: the
 * contract requires `voiceId`.
 */
import { ApiError } from '../contract/errors';
import { bestReadyVoice } from './best-voice';
import type { VoiceEntry } from './library';
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
}

/**
 * The voice to speak with when none was asked for; VOICE_NOT_READY when no voice at all is ready.
 * @example defaultVoice(library, { language: 'de' }).voice.id
 */
export function defaultVoice(voices: DefaultVoiceSource, wish: DefaultVoiceWish = {}): VoiceEntry {
  const configured = wish.configured ? voices.get(wish.configured) : undefined;
  if (configured && isReadyVoice(configured.voice)) return configured;
  const best = bestReadyVoice(voices.entries(), wish.language ?? 'en');
  if (best) return best;
  throw new ApiError('VOICE_NOT_READY', 'No voice is installed.');
}
