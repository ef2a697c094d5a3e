/** Turn detection on VAD's speech ranges: where an utterance ends, once the silence after it is long enough. */

export interface SampleRange {
  start: number;
  end: number;
}

/**
 * The end (a sample index) of the first stretch of speech followed by at least `silence` samples of silence
 * before the next stretch or the end of the audio seen (`seenEnd`); null while the speaker may go on.
 */
export function findTurnEnd(ranges: readonly SampleRange[], seenEnd: number, silence: number): number | null {
  for (let i = 0; i < ranges.length; i += 1) {
    const next = i + 1 < ranges.length ? ranges[i + 1].start : seenEnd;
    if (next - ranges[i].end >= silence) return ranges[i].end;
  }
  return null;
}
