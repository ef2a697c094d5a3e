/**
 * How long a narration's timeline may be. A cue far out (`99:00:00,000`) would otherwise make a few bytes
 * of subtitles ask for hours of audio; admission refuses it (src/jobs/admission.ts), and the engine may
 * check its tasks against the same limit.
 */
import type { SubtitleCue } from './parse';

export const MAX_NARRATION_HOURS = 10;
export const MAX_NARRATION_SECONDS = MAX_NARRATION_HOURS * 60 * 60;

/** The first cue, in file order, that ends after the limit; undefined when the whole timeline fits. */
export function cuePastTimelineLimit(cues: readonly SubtitleCue[]): SubtitleCue | undefined {
  return cues.filter((cue) => cue.end > MAX_NARRATION_SECONDS).sort((a, b) => a.index - b.index)[0];
}
