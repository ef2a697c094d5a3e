/**
 * The rules for a cloning reference clip, shared by the engine (which measures the clip) and the doors
 * (which say them to the user): how much speech, and how loud the stored reference is.
 */

/** Speech, silence trimmed from both ends, that ZipVoice clones well from: 3 to 30 seconds. */
export const MIN_REFERENCE_SECONDS = 3;
export const MAX_REFERENCE_SECONDS = 30;

/** The stored reference's integrated loudness (EBU R128), and the peak it never exceeds. */
export const REFERENCE_LOUDNESS_LUFS = -20;
export const REFERENCE_PEAK_DBFS = -1;

/** Silence kept before the first and after the last word, so no onset or release is clipped. */
export const REFERENCE_PADDING_SECONDS = 0.15;

/** Why `seconds` of speech cannot be a reference, or undefined when it can. */
export function referenceLengthProblem(seconds: number): string | undefined {
  if (seconds === 0) return 'The recording holds no speech.';
  if (seconds < MIN_REFERENCE_SECONDS) {
    return `The recording holds ${seconds.toFixed(1)} s of speech; a voice needs ${MIN_REFERENCE_SECONDS}–${MAX_REFERENCE_SECONDS} s: record a longer clip.`;
  }
  if (seconds > MAX_REFERENCE_SECONDS) {
    return `The recording holds ${seconds.toFixed(1)} s of speech; a voice needs ${MIN_REFERENCE_SECONDS}–${MAX_REFERENCE_SECONDS} s: cut it to at most ${MAX_REFERENCE_SECONDS} s.`;
  }
  return undefined;
}
