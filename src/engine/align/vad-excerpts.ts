/**
 * The part of long media that Silero VAD listens to for the aligner. VAD only tells the aligner where the
 * noise floor is (pauses.ts), and a floor measured on ten minutes spread over the file is the floor of the
 * whole file; VAD over all of an hour cost more than the rest of the alignment together. So media up to
 * VAD_BUDGET_SECONDS is heard whole, and longer media as excerpts spread evenly over it, joined into one
 * buffer for one VAD pass, whose speech is then mapped back to the media's own times. The share of speech
 * heard also gives the reader's pace (vadSpeechSeconds).
 */
import type { SpeechSpan } from './pauses';

/** The most media VAD hears for one alignment. */
export const VAD_BUDGET_SECONDS = 600;
/** Each excerpt of longer media: long enough to hold several pauses between sentences. */
const EXCERPT_SECONDS = 60;

/** The stretches of media (seconds) VAD hears: all of it when short, else evenly spread excerpts. */
export function vadExcerpts(durationSeconds: number): SpeechSpan[] {
  if (durationSeconds <= VAD_BUDGET_SECONDS) return [{ start: 0, end: durationSeconds }];
  const count = Math.floor(VAD_BUDGET_SECONDS / EXCERPT_SECONDS);
  const stride = (durationSeconds - EXCERPT_SECONDS) / (count - 1);
  return Array.from({ length: count }, (_, i) => ({ start: i * stride, end: i * stride + EXCERPT_SECONDS }));
}

/** The excerpts' samples end to end (the media itself when it is heard whole: no copy). */
export function joinExcerpts(pcm: Int16Array, sampleRate: number, excerpts: readonly SpeechSpan[]): Int16Array {
  const ranges = excerpts.map(
    (excerpt) =>
      [Math.round(excerpt.start * sampleRate), Math.min(pcm.length, Math.round(excerpt.end * sampleRate))] as const,
  );
  if (ranges.length === 1 && ranges[0][0] === 0 && ranges[0][1] === pcm.length) return pcm;
  const joined = new Int16Array(ranges.reduce((sum, [from, to]) => sum + Math.max(0, to - from), 0));
  let at = 0;
  for (const [from, to] of ranges) {
    joined.set(pcm.subarray(from, to), at);
    at += Math.max(0, to - from);
  }
  return joined;
}

/** Speech found in the joined excerpts, in the media's own seconds (a span across a join is cut there). */
export function spansInMedia(spans: readonly SpeechSpan[], excerpts: readonly SpeechSpan[]): SpeechSpan[] {
  const mapped: SpeechSpan[] = [];
  let joinedStart = 0;
  for (const excerpt of excerpts) {
    const length = excerpt.end - excerpt.start;
    for (const span of spans) {
      const from = Math.max(span.start, joinedStart);
      const to = Math.min(span.end, joinedStart + length);
      if (to > from) mapped.push({ start: excerpt.start + from - joinedStart, end: excerpt.start + to - joinedStart });
    }
    joinedStart += length;
  }
  return mapped;
}

/**
 * How much of the media is speech, as VAD heard it: the share of speech in what it heard, times the whole
 * length. Null when VAD did not run or heard nothing as speech (the caller then measures by energy).
 */
export function vadSpeechSeconds(
  speech: readonly SpeechSpan[] | null,
  heard: readonly SpeechSpan[] | undefined,
  durationSeconds: number,
): number | null {
  if (!speech || speech.length === 0 || !(durationSeconds > 0)) return null;
  const heardSeconds = heard ? heard.reduce((sum, span) => sum + span.end - span.start, 0) : durationSeconds;
  const speechSeconds = speech.reduce((sum, span) => sum + span.end - span.start, 0);
  if (!(heardSeconds > 0)) return null;
  return (durationSeconds * Math.min(heardSeconds, speechSeconds)) / heardSeconds;
}
