/**
 * The request options a job could not use, each with the reason, reported in `result.ignoredOptions`, so a
 * caller sees why e.g. `steps` changed nothing for an espeak-ng voice.
 */
import type { TtsTask } from '../../engine-api/protocol';
import { asksForOtherLanguage, type EngineNotes } from './synthesizers/synthesizer';

export function ignoredOptions(
  options: TtsTask['options'],
  voice: TtsTask['voice'],
  notes: EngineNotes,
  backend: string,
): Record<string, string> {
  const ignored: Record<string, string> = {};
  if ((options.outputFormat === 'wav' || options.outputFormat === 'flac') && options.bitrateKbps !== null) {
    ignored.bitrateKbps = `${options.outputFormat} is lossless; bitrateKbps applies to mp3 and aac`;
  }
  if (options.inputFormat !== 'txt') {
    if (options.duration !== null) ignored.duration = 'the subtitle timing sets the length of a narration';
    ignored.trimSilence = 'a narration always trims each cue to its speech and keeps the silences between cues';
  }
  if (notes.steps === null) ignored.steps = `${backend} voices have no sampling steps (only ZipVoice takes steps)`;
  if (notes.guidanceScale === null)
    ignored.guidanceScale = `${backend} voices take no guidance scale (only ZipVoice does)`;
  if (notes.language === null && asksForOtherLanguage(options.language, voice.languageCode)) {
    ignored.language = `the voice speaks ${voice.languageCode} only; ${backend} cannot switch it to ${options.language}`;
  }
  return ignored;
}
