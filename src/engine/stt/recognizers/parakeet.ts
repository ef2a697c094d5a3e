/**
 * The Parakeet TDT recognizer. Binding 1.1.3 gives one text per call without token times, so the speech
 * is recognized in chunks of up to CHUNK_SECONDS, cut between VAD's stretches or at the quietest moment:
 * each chunk's text becomes one timed span (its words' times estimated within it), and a live piece as
 * soon as it is done.
 */
import path from 'node:path';
import { SPEECH_SAMPLE_RATE } from '../../media/decode-pcm16';
import { parakeetBackend, UserFacingError } from '../../../engine-api/protocol';
import { coversLanguage, parakeetLanguages } from '../../../models/parakeet-languages';
import { loadParakeetModel, transcribeWithParakeet } from '../parakeet-session';
import type { SpeechRange } from '../speech-timeline';
import type { WhisperSegment } from '../whisper-session';
import type { Recognition, RecognizeRequest, SttRecognizer } from './recognizer';

/** Language reported when `auto` was asked: Parakeet does not say which language it heard. */
const UNDETERMINED_LANGUAGE = 'und';
// Short enough that a span's estimated word times stay close, long enough to give the model context.
const CHUNK_SECONDS = 15;
const MIN_CHUNK_SECONDS = 3;
const QUIET_WINDOW_SECONDS = 0.1;

/** Loads (or keeps) the Parakeet model and checks it covers `requested` (a language code or `auto`). */
export async function openParakeetRecognizer(modelPath: string, requested: string): Promise<SttRecognizer> {
  const name = path.basename(modelPath);
  const languages = parakeetLanguages(name);
  if (!coversLanguage(languages, requested)) {
    throw new UserFacingError(
      `The Parakeet model ${name} cannot transcribe "${requested}"; it covers ${languages.join(', ')}.`,
    );
  }
  const context = await loadParakeetModel(modelPath);
  return {
    backend: parakeetBackend(name),
    engine: 'parakeet',
    language: requested,
    async recognize(request: RecognizeRequest): Promise<Recognition> {
      const pieces: WhisperSegment[] = [];
      const chunks = chunkSpeech(request.samples, request.stretches);
      const total = request.samples.length;
      for (const [from, to] of chunks) {
        const found = await transcribeWithParakeet(context, request.samples.subarray(from, to), request.threads);
        const startMs = (from / SPEECH_SAMPLE_RATE) * 1000;
        const lengthMs = ((to - from) / SPEECH_SAMPLE_RATE) * 1000;
        const timed = found
          .filter((segment) => segment.text.trim().length > 0)
          .map((segment) => ({
            // Each call writes its text as a first piece, without the leading space that joins it to the one before.
            text: ` ${segment.text.trim()}`,
            startMs: startMs + Math.max(0, segment.startMs),
            endMs: startMs + Math.min(lengthMs, Math.max(segment.startMs, segment.endMs)),
          }));
        pieces.push(...timed);
        if (timed.length > 0) request.onPieces?.(timed);
        request.onProgress(total === 0 ? 1 : to / total);
      }
      return {
        language: requested === 'auto' ? UNDETERMINED_LANGUAGE : requested,
        pieces,
        text: pieces
          .map((piece) => piece.text)
          .join('')
          .trim(),
        timing: 'spans',
      };
    },
  };
}

/**
 * Cuts `samples` into chunks of at most CHUNK_SECONDS (sample ranges, back to back, covering all of it):
 * at the middle of the last gap between two stretches that leaves at least MIN_CHUNK_SECONDS, else at the
 * quietest QUIET_WINDOW_SECONDS of the chunk's last third.
 */
export function chunkSpeech(samples: Int16Array, stretches: readonly SpeechRange[]): Array<[number, number]> {
  const rate = SPEECH_SAMPLE_RATE;
  const longest = CHUNK_SECONDS * rate;
  const shortest = MIN_CHUNK_SECONDS * rate;
  const sorted = [...stretches].sort((a, b) => a.start - b.start);
  const gaps = sorted.slice(1).map((stretch, i) => Math.round((((sorted[i]?.end ?? 0) + stretch.start) / 2) * rate));
  const chunks: Array<[number, number]> = [];
  let start = 0;
  while (samples.length - start > longest) {
    const limit = start + longest;
    const gap = gaps.filter((at) => at >= start + shortest && at <= limit).at(-1);
    const cut = gap ?? quietestPoint(samples, limit - Math.floor(longest / 3), limit);
    chunks.push([start, cut]);
    start = cut;
  }
  if (samples.length > start) chunks.push([start, samples.length]);
  return chunks;
}

/** The middle of the quietest window (least energy) in [from, to). */
function quietestPoint(samples: Int16Array, from: number, to: number): number {
  const window = Math.round(QUIET_WINDOW_SECONDS * SPEECH_SAMPLE_RATE);
  let best = to;
  let bestEnergy = Number.POSITIVE_INFINITY;
  for (let at = from; at + window <= to; at += window) {
    let energy = 0;
    for (let i = at; i < at + window; i++) energy += (samples[i] ?? 0) * (samples[i] ?? 0);
    if (energy < bestEnergy) {
      bestEnergy = energy;
      best = at + Math.floor(window / 2);
    }
  }
  return best;
}
