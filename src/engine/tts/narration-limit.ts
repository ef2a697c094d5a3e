/**
 * How long a subtitle narration's timeline may be. A cue far away (`99:00:00,000`) would otherwise ask for
 * hours of output from a few bytes of request; the engine refuses such a task whatever door it came through.
 */
import type { SubtitleCue } from '../../subtitles/parse';

/** The last cue of a narration must end within 10 hours: longer than any film or audiobook chapter. */
export const MAX_NARRATION_SECONDS = 10 * 60 * 60;

/** `HH:MM:SS.mmm`, as the cue's own file writes times. */
function clock(seconds: number): string {
  const millis = Math.round(seconds * 1000);
  const part = (value: number, width: number): string => String(value).padStart(width, '0');
  return `${part(Math.floor(millis / 3_600_000), 2)}:${part(Math.floor(millis / 60_000) % 60, 2)}:${part(Math.floor(millis / 1000) % 60, 2)}.${part(millis % 1000, 3)}`;
}

/** A sentence naming the first cue that ends past the limit, or null when the timeline fits. */
export function narrationTimelineProblem(cues: readonly SubtitleCue[]): string | null {
  const late = cues.find((cue) => !(cue.end <= MAX_NARRATION_SECONDS));
  if (!late) return null;
  return `cue ${late.index} (line ${late.line}) ends at ${clock(late.end)}, past the ${MAX_NARRATION_SECONDS / 3600}-hour limit of a narration's timeline`;
}
