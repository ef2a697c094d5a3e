/**
 * The transcript's segments with the flags that suggest the recognizer invented them (json-full's `flags`),
 * judged against the speech VAD heard when it ran.
 */
import { hallucinationFlags } from '../../subtitles/hallucination-flags';
import type { TranscriptSegment } from '../../subtitles/types';
import type { SpeechRange } from './speech-timeline';

/**
 * `heard` is in seconds of the decoded audio, which starts `offsetSeconds` into the media when it was
 * cropped; segments are in media seconds. A segment with no flag gets no `flags` field.
 */
export function flagSegments(
  segments: TranscriptSegment[],
  heard: readonly SpeechRange[] | undefined,
  offsetSeconds: number,
): TranscriptSegment[] {
  const speech = heard?.map((range) => ({ start: range.start + offsetSeconds, end: range.end + offsetSeconds }));
  const flags = hallucinationFlags(segments, speech ? { speech } : {});
  return segments.map((segment, i) => (flags[i].length > 0 ? { ...segment, flags: flags[i] } : segment));
}
