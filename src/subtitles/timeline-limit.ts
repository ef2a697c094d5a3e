/**
 * How long a narration's timeline may be. A cue far out (`99:00:00,000`) would otherwise make a few bytes
 * of subtitles ask for hours of audio: admission refuses it (src/jobs/admission.ts), and the engine refuses
 * a task that got past every door anyway (src/engine/task-check.ts), both by this one limit.
 */
import type { SubtitleCue } from './parse';

/** The last cue of a narration must end within 10 hours: longer than any film or audiobook chapter. */
export const MAX_NARRATION_HOURS = 10;
export const MAX_NARRATION_SECONDS = MAX_NARRATION_HOURS * 60 * 60;

/** The first cue, in file order, that ends after the limit (or at no number); undefined when the whole timeline fits. */
export function cuePastTimelineLimit(cues: readonly SubtitleCue[]): SubtitleCue | undefined {
  return cues.filter((cue) => !(cue.end <= MAX_NARRATION_SECONDS)).sort((a, b) => a.index - b.index)[0];
}

/** `HH:MM:SS.mmm`, as the cue's own file writes times. */
function clock(seconds: number): string {
  const millis = Math.round(seconds * 1000);
  const part = (value: number, width: number): string => String(value).padStart(width, '0');
  return `${part(Math.floor(millis / 3_600_000), 2)}:${part(Math.floor(millis / 60_000) % 60, 2)}:${part(Math.floor(millis / 1000) % 60, 2)}.${part(millis % 1000, 3)}`;
}

/** A sentence naming the first cue that ends past the limit, or null when the timeline fits. */
export function narrationTimelineProblem(cues: readonly SubtitleCue[]): string | null {
  const late = cuePastTimelineLimit(cues);
  if (!late) return null;
  return `cue ${late.index} (line ${late.line}) ends at ${clock(late.end)}, past the ${MAX_NARRATION_HOURS}-hour limit of a narration's timeline`;
}
