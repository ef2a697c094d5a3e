/**
 * Forced alignment without a recognizer: the script spoken by espeak-ng, both signals as MFCCs, the
 * rendition warped onto the media (a pyramid of warps, the coarsest in windows: bounded memory), units
 * that match far worse than the rest left out and the rest warped again, then units placed through the
 * warp and their boundaries moved into the media's pauses. docs/alignment.md says why each step is so.
 */
import { warpInBand } from './band-dtw';
import { CEPSTRA, FRAME_SECONDS, computeFeatures, poolFrames } from './features';
import { findPauses, noiseFloorDb, type SpeechSpan } from './pauses';
import { placeUnits, type PlacedUnit } from './place-units';
import { assemble, matchingRate, renderScript, type AssembledRendition } from './rendition';
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
/**
 * A unit whose mean warp distance lies this many robust standard deviations (median absolute deviations
 * × 1.4826) above the median unit's is an outlier: its text was not spoken (Iglewicz and Hoaglin's 3.5).
 */
const OUTLIER_Z = 3.5;
/** Each pass leaves out the outliers it finds and warps again; a few passes settle any script. */
const MAX_PASSES = 4;

export interface AlignmentInput {
  pcm: Int16Array;
  sampleRate: number;
  /** What Silero VAD heard as speech, in seconds of `pcm`; null when VAD did not run. */
  speech: SpeechSpan[] | null;
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
  /** Warps run: one, plus one for each pass that left units out. */
  passes: number;
}

export async function alignSpeech(input: AlignmentInput): Promise<Alignment> {
  const media = computeFeatures(input.pcm, input.sampleRate);
  const duration = input.pcm.length / input.sampleRate;
  const pauses = findPauses(media.energyDb, noiseFloorDb(media.energyDb, input.speech));
  const speechSeconds = duration - pauses.reduce((sum, pause) => sum + pause.end - pause.start, 0);
  const espeakRate = await matchingRate(input.texts, input.voice, speechSeconds);
  const rendition = await renderScript(input.texts, input.voice, espeakRate, (fraction) => input.onProgress?.('synthesizing', fraction));
  const target = poolFrames(media.cepstra, media.frames, POOL);
  const targetSteps = target.length / CEPSTRA;
  const keep = rendition.units.map((unit) => unit.frames > 0);
  let peakCells = 0;
  let passes = 0;
  for (;;) {
    passes++;
    const assembled = assemble(rendition, keep);
    const reference = poolFrames(assembled.cepstra, assembled.frames, POOL);
    const referenceSteps = reference.length / CEPSTRA;
    if (referenceSteps === 0 || targetSteps === 0) {
      return { units: rendition.units.map(() => ({ matched: false, start: 0, end: 0, words: [] })), peakCells, espeakRate, passes };
    }
    const rate = targetSteps / referenceSteps;
    const warp = warpPyramid(reference, target, rate);
    peakCells = Math.max(peakCells, warp.peakCells);
    input.onProgress?.('matching', Math.min(0.9, passes / (MAX_PASSES + 1)));
    const outliers = passes < MAX_PASSES ? outlierUnits(assembled, warp, keep) : [];
    if (outliers.length === 0 || outliers.length === keep.filter(Boolean).length) {
      const step = (frame: number): number => Math.min(referenceSteps - 1, Math.floor(frame / POOL));
      const units = placeUnits(assembled.units, {
        firstFrame: (frame) => warp.first[step(frame)]! * POOL,
        lastFrame: (frame) => warp.last[step(frame)]! * POOL + POOL - 1,
        rate,
        duration,
      }, pauses);
      return { units, peakCells, espeakRate, passes };
    }
    for (const unit of outliers) keep[unit] = false;
  }
}

function warpPyramid(reference: Float32Array, target: Float32Array, rate: number): Warp {
  const middleReference = poolFrames(reference, reference.length / CEPSTRA, MIDDLE_FACTOR);
  const middleTarget = poolFrames(target, target.length / CEPSTRA, MIDDLE_FACTOR);
  const middleSeconds = FRAME_SECONDS * POOL * MIDDLE_FACTOR;
  const coarseSeconds = middleSeconds * COARSE_FACTOR;
  const coarse = warpWindowed(
    poolFrames(middleReference, middleReference.length / CEPSTRA, COARSE_FACTOR),
    poolFrames(middleTarget, middleTarget.length / CEPSTRA, COARSE_FACTOR),
    { windowFrames: Math.round(WINDOW_SECONDS / coarseSeconds), rate, slackFrames: Math.round(SLACK_SECONDS / coarseSeconds) },
  );
  const middle = warpInBand(middleReference, middleTarget, coarse, COARSE_FACTOR, Math.round(MIDDLE_BAND_SECONDS / middleSeconds));
  return warpInBand(reference, target, middle, MIDDLE_FACTOR, Math.round(BAND_SECONDS / (FRAME_SECONDS * POOL)));
}

/** The kept units whose frames the warp matched far worse than the others' (robust z-score of their mean distance). */
function outlierUnits(assembled: AssembledRendition, warp: Warp, keep: readonly boolean[]): number[] {
  const scores = assembled.units.map((unit, i) => {
    if (!keep[i] || unit.endFrame <= unit.startFrame) return NaN;
    let sum = 0;
    let count = 0;
    for (let step = Math.floor(unit.startFrame / POOL); step < Math.ceil(unit.endFrame / POOL) && step < warp.distance.length; step++) {
      sum += warp.distance[step]!;
      count++;
    }
    return count ? sum / count : NaN;
  });
  const valid = scores.filter((score) => Number.isFinite(score)).sort((a, b) => a - b);
  if (valid.length < 3) return [];
  const median = valid[valid.length >> 1]!;
  const deviations = valid.map((score) => Math.abs(score - median)).sort((a, b) => a - b);
  const spread = 1.4826 * deviations[deviations.length >> 1]!;
  if (!(spread > 0)) return [];
  return scores.flatMap((score, i) => (Number.isFinite(score) && (score - median) / spread > OUTLIER_Z ? [i] : []));
}
