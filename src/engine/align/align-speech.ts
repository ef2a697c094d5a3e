/**
 * Forced alignment without a recognizer: the script spoken by espeak-ng at the media's pace, both signals
 * as MFCCs, the rendition warped onto the media (a pyramid of warps, the coarsest in windows: bounded
 * memory), then units placed through the warp (those it passed over in a moment reported as not found)
 * and their boundaries moved into the media's pauses. docs/alignment.md says why each step is so.
 */
import { openOwnEspeak } from '../tts/synthesizers/espeak';
import { warpInBand } from './band-dtw';
import { CEPSTRA, FRAME_SECONDS, computeFeatures, poolFrames } from './features';
import { findPauses, noiseFloorDb, quietMarginDb, type SpeechSpan } from './pauses';
import { placeUnits, type PlacedUnit } from './place-units';
import { repairStretches } from './repair-stretches';
import { secondPass } from './second-pass';
import { assemble, matchingRate, renderScript } from './rendition';
import { vadSpeechSeconds } from './vad-excerpts';
import { warpWindowed, type Warp } from './windowed-dtw';

/** The fine warp runs on 20 ms steps (two feature frames): fine enough for the pause search that follows. */
const POOL = 2;
/**
 * Three resolutions, as a pyramid: a windowed warp on 200 ms steps finds the way; one on 40 ms steps
 * (aeneas' own resolution) in a band of 3 s around it follows the speech sounds; the 20 ms one in a
 * band of 1 s around that places them. Each band is wider than the error of the level below it.
 */
const MIDDLE_FACTOR = 2;
const COARSE_FACTOR = 5;
const MIDDLE_BAND_SECONDS = 3;
const BAND_SECONDS = 1;
/** 60 s of rendition per coarse window: many sentences, so a window always holds enough speech to lock on to. */
const WINDOW_SECONDS = 60;
/** A window may pass over 20 s of media the script does not have (beyond 1.5 times its expected length). */
const SLACK_SECONDS = 20;
/** Below this share of VAD's speech, energy pauses are taking speech for pause (readerSpeechSeconds). */
const ENERGY_SHARE_OF_VAD = 0.75;
export interface AlignmentInput {
  pcm: Int16Array;
  sampleRate: number;
  /** What Silero VAD heard as speech, in seconds of `pcm`; null when VAD did not run. */
  speech: SpeechSpan[] | null;
  /** The stretches of `pcm` VAD listened to (vad-excerpts.ts); all of it when absent. */
  heard?: SpeechSpan[];
  texts: readonly string[];
  voice: string;
  onProgress?(step: 'synthesizing' | 'matching', fraction: number): void;
}

export interface Alignment {
  units: PlacedUnit[];
  /** The largest DTW step matrix held, in cells (one byte each). */
  peakCells: number;
  /** The espeak-ng rate the script was spoken at, in words per minute (matched to the media's pace). */
  espeakRate: number;
}

export async function alignSpeech(input: AlignmentInput): Promise<Alignment> {
  const media = computeFeatures(input.pcm, input.sampleRate);
  const duration = input.pcm.length / input.sampleRate;
  const floorDb = noiseFloorDb(media.energyDb, input.speech, input.heard);
  const pauses = findPauses(media.energyDb, floorDb, quietMarginDb(media.energyDb, floorDb, input.speech));
  const speechSeconds = readerSpeechSeconds(
    duration - pauses.reduce((sum, pause) => sum + pause.end - pause.start, 0),
    vadSpeechSeconds(input.speech, input.heard, duration),
  );
  // An espeak of the job's own: the shared one's state depends on what it said before (rendition.ts).
  const espeak = await openOwnEspeak();
  const espeakRate = matchingRate(espeak, input.texts, input.voice, speechSeconds);
  const rendition = renderScript(espeak, input.texts, input.voice, espeakRate, (fraction) =>
    input.onProgress?.('synthesizing', fraction),
  );
  const target = poolFrames(media.cepstra, media.frames, POOL);
  const targetSteps = target.length / CEPSTRA;
  const assembled = assemble(
    rendition,
    rendition.units.map(() => true),
  );
  const reference = poolFrames(assembled.cepstra, assembled.frames, POOL);
  const referenceSteps = reference.length / CEPSTRA;
  if (referenceSteps === 0 || targetSteps === 0) {
    return {
      units: rendition.units.map(() => ({ matched: false, start: 0, end: 0, words: [] })),
      peakCells: 0,
      espeakRate,
    };
  }
  const rate = targetSteps / referenceSteps;
  input.onProgress?.('matching', 0.2);
  const warp = warpPyramid(reference, target, rate);
  const unitSteps = assembled.units.map((unit) => ({
    start: Math.floor(unit.startFrame / POOL),
    end: Math.min(referenceSteps, Math.ceil(unit.endFrame / POOL)),
  }));
  repairStretches(warp, unitSteps, reference, target, rate, FRAME_SECONDS * POOL);
  secondPass(warp, unitSteps, reference, target, rate, FRAME_SECONDS * POOL);
  input.onProgress?.('matching', 0.9);
  const step = (frame: number): number => Math.min(referenceSteps - 1, Math.floor(frame / POOL));
  const units = placeUnits(
    assembled.units,
    {
      firstFrame: (frame) => warp.first[step(frame)] * POOL,
      lastFrame: (frame) => warp.last[step(frame)] * POOL + POOL - 1,
      rate,
      duration,
    },
    pauses,
  );
  return { units, peakCells: warp.peakCells, espeakRate };
}

/**
 * How much of the media the reader speaks, which sets the rendition's pace. Energy pauses measure it
 * finely, but under loud noise they take much of the speech for pause; VAD's speech is coarser (it keeps
 * pauses under 100 ms and pads each stretch), so it is taken only where energy finds less than
 * ENERGY_SHARE_OF_VAD of it: short pauses and padding never account for that much.
 */
function readerSpeechSeconds(byEnergy: number, byVad: number | null): number {
  return byVad !== null && byEnergy < ENERGY_SHARE_OF_VAD * byVad ? byVad : byEnergy;
}

function warpPyramid(reference: Float32Array, target: Float32Array, rate: number): Warp {
  const middleReference = poolFrames(reference, reference.length / CEPSTRA, MIDDLE_FACTOR);
  const middleTarget = poolFrames(target, target.length / CEPSTRA, MIDDLE_FACTOR);
  const middleSeconds = FRAME_SECONDS * POOL * MIDDLE_FACTOR;
  const coarseSeconds = middleSeconds * COARSE_FACTOR;
  const coarse = warpWindowed(
    poolFrames(middleReference, middleReference.length / CEPSTRA, COARSE_FACTOR),
    poolFrames(middleTarget, middleTarget.length / CEPSTRA, COARSE_FACTOR),
    {
      windowFrames: Math.round(WINDOW_SECONDS / coarseSeconds),
      rate,
      slackFrames: Math.round(SLACK_SECONDS / coarseSeconds),
    },
  );
  const middle = warpInBand(
    middleReference,
    middleTarget,
    coarse,
    COARSE_FACTOR,
    Math.round(MIDDLE_BAND_SECONDS / middleSeconds),
  );
  return warpInBand(reference, target, middle, MIDDLE_FACTOR, Math.round(BAND_SECONDS / (FRAME_SECONDS * POOL)));
}
