/**
 * Text → speech recording, chunk by chunk: the engine speaks each chunk, a pause separates chunks, and the
 * samples go to the speech front (stretch, trim, resample, denoise, measure, spool) as they are made.
 * Memory holds about one chunk's audio at a time.
 */
import type { SpeechEngine } from './synthesizers/synthesizer';
import type { SpeechFront } from './speech-front';
import type { WordClock } from './word-clock';

/**
 * Silence between chunks at speed 1. Each synthesis call ends almost without a pause, so without it the
 * last sentence of one chunk would run into the next; 0.3 s is espeak's own pause after a full stop.
 */
export const CHUNK_PAUSE_SECONDS = 0.3;

export interface RecordTextOptions {
  speed: number;
  /** Called after each chunk with the characters done so far. */
  onChunk(doneCharacters: number): void;
  /** Given for an engine with word events (and no time stretch): it learns where each word starts. */
  words?: WordClock;
}

export async function recordText(
  chunks: readonly string[],
  engine: SpeechEngine,
  front: SpeechFront,
  options: RecordTextOptions,
): Promise<void> {
  // An engine's own rate does not shorten our pause; a time stretch (in the front) does.
  const pause = new Int16Array(
    Math.round((engine.sampleRate * CHUNK_PAUSE_SECONDS) / (engine.nativeSpeed ? options.speed : 1)),
  );
  let done = 0;
  const clock = options.words;
  const push = (samples: Int16Array): void => {
    clock?.sent(samples);
    front.push(samples);
  };
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0) push(pause);
    const callStart = clock?.seconds ?? 0;
    if (engine.stream)
      await engine.stream(chunk, push, clock && ((word) => clock.word(word.text, callStart, word.seconds)));
    else push(await engine.synthesize(chunk));
    await front.drain();
    done += chunk.length;
    options.onChunk(done);
  }
}
