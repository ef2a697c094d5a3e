/**
 * The reference the media is warped against: each script unit spoken by espeak-ng in the script's
 * language, trimmed of its own leading and trailing silence and set between pauses of fixed length, as
 * features (never as one long buffer of samples, so an hour of script costs its features only). espeak's
 * word events give where each word starts in the rendition.
 */
import { espeakVoiceForLanguage } from '../../voices/espeak-language';
import { ESPEAK_DEFAULT_RATE, openEspeakVoice } from '../tts/synthesizers/espeak';

/** The rates espeak-ng takes, in words per minute. */
const MIN_ESPEAK_RATE = 80;
const MAX_ESPEAK_RATE = 450;
import { concatSamples } from '../audio/samples';
import { UserFacingError } from '../protocol';
import { CEPSTRA, computeFeatures, FRAME_SECONDS } from './features';

/** The pause set between units in the rendition: as long as a short pause between sentences. */
const GAP_SECONDS = 0.2;
/** Samples quieter than this (about −50 dBFS) at a unit's edges are espeak's own silence, trimmed. */
const EDGE_LEVEL = 100;

export interface RenditionUnit {
  /** The unit's sound in rendition frames (10 ms), end exclusive; start === end when espeak said nothing. */
  startFrame: number;
  endFrame: number;
  /** Where espeak started each word, in rendition frames, with the word as written. */
  words: Array<{ text: string; frame: number }>;
}

export interface Rendition {
  /** Raw (not yet normalized) cepstra, frames × CEPSTRA. */
  cepstra: Float32Array;
  frames: number;
  units: RenditionUnit[];
  /** The espeak voice that spoke it. */
  voice: string;
}

/** The espeak voice for a language tag (`auto` and unknown languages: English, said in the result). */
export function renditionVoice(language: string): string {
  const voice = language === 'auto' ? undefined : espeakVoiceForLanguage(language);
  if (!voice && language !== 'auto') {
    throw new UserFacingError(`espeak-ng has no voice for the language "${language}", so the script cannot be aligned; give a language such as en, de or fr.`);
  }
  return voice?.identifier ?? espeakVoiceForLanguage('en')!.identifier;
}

/** How many words of the script the speaking rate is measured on. */
const CALIBRATION_WORDS = 200;

const countWords = (text: string): number => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/** Samples of sound in espeak's rendition of `text`, its own leading and trailing silence left out. */
function soundLength(samples: Int16Array): { from: number; to: number } {
  let from = 0;
  while (from < samples.length && Math.abs(samples[from]!) < EDGE_LEVEL) from++;
  let to = samples.length;
  while (to > from && Math.abs(samples[to - 1]!) < EDGE_LEVEL) to--;
  return { from, to };
}

/**
 * The espeak rate (words per minute) at which the rendition lasts as long as the media's speech: measured
 * on the script's first words, so the warp runs near its diagonal and a reader's pace is no obstacle.
 */
export async function matchingRate(texts: readonly string[], voiceId: string, speechSeconds: number): Promise<number> {
  const totalWords = texts.reduce((sum, text) => sum + countWords(text), 0);
  if (totalWords === 0 || !(speechSeconds > 0)) return ESPEAK_DEFAULT_RATE;
  const voice = await openEspeakVoice(voiceId, ESPEAK_DEFAULT_RATE);
  let words = 0;
  let samples = 0;
  for (const text of texts) {
    if (words >= CALIBRATION_WORDS) break;
    const { from, to } = soundLength(concatSamples(voice.synthesize(text)));
    samples += to - from;
    words += countWords(text);
  }
  if (words === 0 || samples === 0) return ESPEAK_DEFAULT_RATE;
  const renditionSecondsPerWord = samples / voice.sampleRate / words;
  const mediaSecondsPerWord = speechSeconds / totalWords;
  return Math.round(ESPEAK_DEFAULT_RATE * (renditionSecondsPerWord / mediaSecondsPerWord));
}

export async function renderScript(texts: readonly string[], voiceId: string, rate: number, onProgress?: (fraction: number) => void): Promise<Rendition> {
  const voice = await openEspeakVoice(voiceId, Math.min(MAX_ESPEAK_RATE, Math.max(MIN_ESPEAK_RATE, rate)));
  const sampleRate = voice.sampleRate;
  const gap = new Int16Array(Math.round(GAP_SECONDS * sampleRate));
  const chunks: Float32Array[] = [];
  const units: RenditionUnit[] = [];
  let frames = 0;
  const append = (samples: Int16Array): number => {
    const features = computeFeatures(samples, sampleRate, { normalize: false });
    chunks.push(features.cepstra);
    frames += features.frames;
    return features.frames;
  };
  for (const [i, text] of texts.entries()) {
    const spoken = voice.synthesizeWords(text);
    const samples = concatSamples(spoken.samples);
    const { from, to } = soundLength(samples);
    append(gap);
    const startFrame = frames;
    const trimmed = samples.subarray(from, to);
    append(trimmed);
    const offsetSeconds = from / sampleRate;
    const words = spoken.words
      .filter((word) => word.text.trim() !== '')
      .map((word) => ({
        text: word.text,
        frame: Math.min(frames, startFrame + Math.max(0, Math.round((word.startSeconds - offsetSeconds) / FRAME_SECONDS))),
      }));
    units.push({ startFrame, endFrame: frames, words });
    onProgress?.((i + 1) / texts.length);
  }
  append(gap);
  const cepstra = new Float32Array(frames * CEPSTRA);
  let at = 0;
  for (const chunk of chunks) {
    cepstra.set(chunk, at);
    at += chunk.length;
  }
  return { cepstra, frames, units, voice: voiceId };
}
