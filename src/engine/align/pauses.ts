/**
 * Pauses in the media: runs of 10 ms frames whose energy stays near the noise floor. Sentence boundaries in
 * speech fall in pauses, so the aligner moves each boundary that warping placed roughly into the pause
 * that matches it. The noise floor is measured where Silero VAD hears no speech, in the stretches it heard,
 * when VAD ran; otherwise it is a low percentile of all frames.
 */
import { FRAME_SECONDS } from './features';

/** A frame is quiet when its energy is at most this far above the noise floor (10 dB: a third of the amplitude). */
const QUIET_ABOVE_FLOOR_DB = 10;
/** Under loud noise the margin shrinks, but never below this (a floor's own frames wander by a few dB). */
const MIN_QUIET_ABOVE_FLOOR_DB = 3;
/** The shortest pause: 30 ms, shorter than any pause between sentences yet longer than most gaps between words. */
const MIN_PAUSE_FRAMES = 3;
/** Without VAD, the floor is this percentile of frame energies (most media has at least this much pause). */
const FLOOR_PERCENTILE = 0.05;

export interface Pause {
  /** Seconds; the pause runs from the end of one sound to the start of the next. */
  start: number;
  end: number;
}

export interface SpeechSpan {
  start: number;
  end: number;
}

/**
 * The noise floor in dB: the median frame energy outside speech when VAD found some silence, else a low
 * percentile. `heard` (default: all of the media) says which stretches VAD listened to; only those count.
 */
export function noiseFloorDb(
  energyDb: Float32Array,
  speech: readonly SpeechSpan[] | null,
  heard?: readonly SpeechSpan[],
): number {
  if (energyDb.length === 0) return -100;
  if (speech) {
    const mark = (mask: Uint8Array, spans: readonly SpeechSpan[], value: number): void => {
      for (const span of spans)
        mask.fill(
          value,
          Math.max(0, Math.floor(span.start / FRAME_SECONDS)),
          Math.min(energyDb.length, Math.ceil(span.end / FRAME_SECONDS)),
        );
    };
    // 0: not heard, 1: heard and no speech, 2: speech.
    const inSpeech = new Uint8Array(energyDb.length);
    if (heard) mark(inSpeech, heard, 1);
    else inSpeech.fill(1);
    mark(inSpeech, speech, 2);
    const outside = energyDb.filter((_, frame) => inSpeech[frame] === 1);
    // At least a second of non-speech to measure on; otherwise fall back to the percentile.
    if (outside.length >= 1 / FRAME_SECONDS) return percentile(outside, 0.5);
  }
  return percentile(energyDb, FLOOR_PERCENTILE);
}

function percentile(values: Float32Array, fraction: number): number {
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

/**
 * How far above the floor a frame may be and still be quiet: 10 dB, or half the way from the floor to the
 * median level of what VAD heard as speech when that is less. Under music or noise at 10 dB SNR, speech's
 * quieter half lies within 10 dB of the floor, and a fixed margin called most of the speech pause.
 */
export function quietMarginDb(energyDb: Float32Array, floorDb: number, speech: readonly SpeechSpan[] | null): number {
  if (!speech || speech.length === 0) return QUIET_ABOVE_FLOOR_DB;
  const inSpeech: number[] = [];
  for (const span of speech) {
    const to = Math.min(energyDb.length, Math.ceil(span.end / FRAME_SECONDS));
    for (let frame = Math.max(0, Math.floor(span.start / FRAME_SECONDS)); frame < to; frame++)
      inSpeech.push(energyDb[frame]);
  }
  if (inSpeech.length === 0) return QUIET_ABOVE_FLOOR_DB;
  const speechLevel = percentile(Float32Array.from(inSpeech), 0.5);
  return Math.max(MIN_QUIET_ABOVE_FLOOR_DB, Math.min(QUIET_ABOVE_FLOOR_DB, (speechLevel - floorDb) / 2));
}

/** The pauses of at least 30 ms, in time order: runs of frames at most `marginDb` above the floor. */
export function findPauses(energyDb: Float32Array, floorDb: number, marginDb = QUIET_ABOVE_FLOOR_DB): Pause[] {
  const threshold = floorDb + marginDb;
  const pauses: Pause[] = [];
  let runStart = -1;
  for (let frame = 0; frame <= energyDb.length; frame++) {
    const quiet = frame < energyDb.length && energyDb[frame] <= threshold;
    if (quiet && runStart < 0) runStart = frame;
    if (!quiet && runStart >= 0) {
      if (frame - runStart >= MIN_PAUSE_FRAMES || runStart === 0 || frame === energyDb.length) {
        pauses.push({ start: runStart * FRAME_SECONDS, end: frame * FRAME_SECONDS });
      }
      runStart = -1;
    }
  }
  return pauses;
}
