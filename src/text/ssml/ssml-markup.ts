/** What admission resolved for an SSML text, carried to the engine with the job: its voices and its audio files. */
import type { TtsVoiceRef } from '../../voices/voice-ref';

/** `<voice name>` → the voice it names; `<audio src>` → the confined absolute path of the file. */
export interface SsmlTaskMarkup {
  voices: Record<string, TtsVoiceRef>;
  audio: Record<string, string>;
}
