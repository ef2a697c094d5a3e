/** Subtitle text → cues for narration, with parse errors as sentences for the user. */
import { parseSubtitles, SubtitleError, type SubtitleCue } from '../../subtitles/parse';
import { UserFacingError } from '../../engine-api/protocol';

export function readCues(source: string, format: 'srt' | 'vtt'): SubtitleCue[] {
  try {
    return parseSubtitles(source, format);
  } catch (error) {
    if (error instanceof SubtitleError)
      throw new UserFacingError(`The ${format.toUpperCase()} text cannot be read: ${error.message}.`);
    throw error;
  }
}
