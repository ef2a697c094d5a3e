/**
 * How high a speaker's voice is, from the original audio of their cues: the median fundamental frequency of
 * the voiced frames (normalized autocorrelation), which is what Dub Media goes by when it gives each speaker
 * a library voice of the matching gender. No model is needed, and a wrong guess costs only a voice choice.
 */
import type { SpeakerGender } from '../../engine-api/dub-types';

/** Voices below this median pitch are taken as male, above it as female (the usual split, about 165 Hz). */
export const GENDER_SPLIT_HZ = 165;

const MIN_PITCH_HZ = 60;
const MAX_PITCH_HZ = 400;
const FRAME_SECONDS = 0.04;
/** A frame quieter than this (RMS of 16-bit samples, about −40 dBFS) is not looked at. */
const MIN_FRAME_RMS = 330;
/** A frame whose best normalized autocorrelation is below this is unvoiced (noise, a consonant). */
const MIN_CORRELATION = 0.6;
/** A peak this close to the best correlation counts as the period (the shortest such lag wins). */
const OCTAVE_TOLERANCE = 0.9;
/** Voiced frames needed before the median means anything. */
const MIN_VOICED_FRAMES = 5;
/** At most this much of a speaker's audio is looked at: enough for a stable median, bounded work. */
const MAX_SECONDS = 30;

/** Pitch of one frame in Hz, or null when it is quiet or unvoiced. */
export function framePitchHz(samples: Int16Array, from: number, length: number, sampleRate: number): number | null {
  let energy = 0;
  for (let i = from; i < from + length; i++) energy += samples[i] * samples[i];
  if (Math.sqrt(energy / length) < MIN_FRAME_RMS) return null;
  const minLag = Math.floor(sampleRate / MAX_PITCH_HZ);
  const maxLag = Math.min(Math.ceil(sampleRate / MIN_PITCH_HZ), length - 1);
  const correlation = new Float64Array(maxLag + 2);
  let best = 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    let cross = 0;
    let a = 0;
    let b = 0;
    for (let i = from; i < from + length - lag; i++) {
      const x = samples[i];
      const y = samples[i + lag];
      cross += x * y;
      a += x * x;
      b += y * y;
    }
    correlation[lag] = a > 0 && b > 0 ? cross / Math.sqrt(a * b) : 0;
    best = Math.max(best, correlation[lag]);
  }
  // A periodic signal correlates as well at two and three periods as at one: the first peak near the best is the period.
  let bestLag = 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    const peak = correlation[lag] >= correlation[lag - 1] && correlation[lag] >= correlation[lag + 1];
    if (peak && correlation[lag] >= best * OCTAVE_TOLERANCE) {
      bestLag = lag;
      break;
    }
  }
  return best >= MIN_CORRELATION && bestLag > 0 ? sampleRate / bestLag : null;
}

/** The median pitch of the voiced frames within `ranges` (seconds), or null when too few frames are voiced. */
export function medianPitchHz(
  samples: Int16Array,
  sampleRate: number,
  ranges: ReadonlyArray<{ start: number; end: number }>,
): number | null {
  const frame = Math.round(sampleRate * FRAME_SECONDS);
  const pitches: number[] = [];
  let looked = 0;
  for (const range of ranges) {
    const first = Math.max(0, Math.floor(range.start * sampleRate));
    const last = Math.min(samples.length, Math.ceil(range.end * sampleRate));
    for (let at = first; at + frame <= last && looked < MAX_SECONDS * sampleRate; at += frame) {
      looked += frame;
      const pitch = framePitchHz(samples, at, frame, sampleRate);
      if (pitch !== null) pitches.push(pitch);
    }
  }
  if (pitches.length < MIN_VOICED_FRAMES) return null;
  pitches.sort((x, y) => x - y);
  return Math.round(pitches[Math.floor(pitches.length / 2)]);
}

/** The gender a median pitch suggests; unknown without one. */
export function genderOfPitch(pitchHz: number | null): SpeakerGender {
  if (pitchHz === null) return 'unknown';
  return pitchHz < GENDER_SPLIT_HZ ? 'male' : 'female';
}
