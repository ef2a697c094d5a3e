/** A stretch of audio in seconds. */
export interface SpeechRange {
  start: number;
  end: number;
}

/** Which end of a word a time is, for mapping times that fall between two stretches of speech. */
export type SpeechEdge = 'start' | 'end';

export interface SpeechTimeline {
  /** The speech stretches back to back, with a short silence between two stretches. */
  samples: Int16Array;
  /**
   * Maps a time in `samples` (seconds) back to the time in the audio the stretches came from. A time inside
   * a gap stands for a point of the pause it replaced; with `edge`, it goes to the speech instead: `start`
   * to where the next stretch starts, `end` to where the previous one ended (so no word starts in silence).
   */
  toSourceSeconds: (seconds: number, edge?: SpeechEdge) => number;
  /** Where each stretch lies in `samples`, in seconds (a recognizer may cut between them). */
  stretches: SpeechRange[];
}

interface Piece {
  /** Where the stretch starts in the compacted samples. */
  at: number;
  /** Where it starts and ends in the source samples. */
  from: number;
  to: number;
}

/**
 * Keeps only the speech of `pcm`, the way whisper.cpp's own VAD does: the stretches are copied back to back
 * with `gapSeconds` of silence between them (so whisper sees a pause, not a cut), and times in the result
 * map back to the source: linearly inside a stretch, and a gap stands for the whole pause it replaced.
 * Overlapping or out-of-range ranges are merged and clamped.
 * @example
 * const { samples, toSourceSeconds } = compactSpeech(pcm, [{ start: 1, end: 2 }, { start: 5, end: 6 }], 16000);
 * toSourceSeconds(1.05) === 2.5 // halfway through the 0.1 s gap is halfway through the 3 s pause
 */
export function compactSpeech(
  pcm: Int16Array,
  ranges: readonly SpeechRange[],
  sampleRate: number,
  gapSeconds = 0.1,
): SpeechTimeline {
  const stretches = toSampleStretches(pcm.length, ranges, sampleRate);
  const gap = Math.round(gapSeconds * sampleRate);
  const total = stretches.reduce((sum, [from, to]) => sum + (to - from), 0) + gap * Math.max(0, stretches.length - 1);
  const samples = new Int16Array(total);
  const pieces: Piece[] = [];
  let at = 0;
  stretches.forEach(([from, to], i) => {
    if (i > 0) at += gap; // new Int16Array is already silent
    samples.set(pcm.subarray(from, to), at);
    pieces.push({ at, from, to });
    at += to - from;
  });
  return {
    samples,
    toSourceSeconds: (seconds, edge) => toSource(pieces, gap, seconds * sampleRate, edge) / sampleRate,
    stretches: pieces.map((piece) => ({
      start: piece.at / sampleRate,
      end: (piece.at + piece.to - piece.from) / sampleRate,
    })),
  };
}

function toSampleStretches(
  length: number,
  ranges: readonly SpeechRange[],
  sampleRate: number,
): Array<[number, number]> {
  const sorted = ranges
    .map((range): [number, number] => [
      Math.max(0, Math.round(range.start * sampleRate)),
      Math.min(length, Math.round(range.end * sampleRate)),
    ])
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

function toSource(pieces: readonly Piece[], gap: number, position: number, edge: SpeechEdge | undefined): number {
  if (pieces.length === 0) return position;
  const first = pieces[0];
  if (position <= first.at) return first.from;
  // The last piece starting at or before `position`.
  let low = 0;
  let high = pieces.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (pieces[middle].at <= position) low = middle;
    else high = middle - 1;
  }
  const piece = pieces[low];
  const offset = position - piece.at;
  const length = piece.to - piece.from;
  if (offset <= length) return piece.from + offset;
  const next = pieces[low + 1];
  if (!next || edge === 'end') return piece.to;
  if (edge === 'start') return next.from;
  return piece.to + ((offset - length) / gap) * (next.from - piece.to);
}
