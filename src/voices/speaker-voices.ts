/**
 * Subtitle narration with several voices: the editor's command (from its setting) maps speaker names,
 * as `<v Name>` tags and `Name:` prefixes give them, to voices of the library. The Local API body has no
 * such field, so API narrations speak every cue with the request's voice.
 *
 * @example speakerVoices(library, { Marie: frenchVoiceId, Bob: englishVoiceId })
 */
import type { TtsVoiceRef } from './voice-ref';
import type { VoiceLibrary } from './library';
import { isReadyVoice } from './voice-entry';

export class SpeakerVoiceError extends Error {
  constructor(
    readonly speaker: string,
    readonly reason: 'unknown' | 'not_ready',
    message: string,
  ) {
    super(message);
    this.name = 'SpeakerVoiceError';
  }
}

/** The engine references for a speaker → voice id mapping; throws when a voice is unknown or not ready. */
export function speakerVoices(
  library: Pick<VoiceLibrary, 'get'>,
  mapping: Record<string, string>,
): Record<string, TtsVoiceRef> {
  const refs: Record<string, TtsVoiceRef> = {};
  for (const [speaker, voiceId] of Object.entries(mapping)) {
    const name = speaker.trim();
    if (!name) continue;
    const entry = library.get(voiceId);
    if (!entry)
      throw new SpeakerVoiceError(
        name,
        'unknown',
        `The voice ${voiceId} for speaker "${name}" is not in the voice library.`,
      );
    if (!isReadyVoice(entry.voice)) {
      throw new SpeakerVoiceError(
        name,
        'not_ready',
        `The voice ${entry.voice.name} for speaker "${name}" is ${entry.voice.availability.replace('_', ' ')}.`,
      );
    }
    refs[name] = entry.ref;
  }
  return refs;
}
