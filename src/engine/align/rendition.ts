/**
 * The reference the media is warped against: each script unit spoken by espeak-ng in the script's
 * language, trimmed of its own leading and trailing silence and set between pauses of fixed length, as
 * features (never as one long buffer of samples, so an hour of script costs its features only). espeak's
 * word events give where each word starts in the rendition. The caller hands in an espeak instance of the
 * job's own (openOwnEspeak), so the same script gives the same rendition in every job.
 */
import { espeakVoiceForLanguage } from '../../voices/espeak-language';
import { ESPEAK_DEFAULT_RATE, type OwnEspeak } from '../tts/synthesizers/espeak';

/** The rates espeak-ng takes, in words per minute. */
const MIN_ESPEAK_RATE = 80;
const MAX_ESPEAK_RATE = 450;
import { concatSamples } from '../audio/samples';
import { UserFacingError } from '../../engine-api/protocol';
import { CEPSTRA, computeFeatures, FRAME_SECONDS, normalizeCepstra } from './features';

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

/** One unit spoken: its cepstra (frames × CEPSTRA) and its words' frames from the unit's start. */
interface SpokenUnit {
  cepstra: Float32Array;
  frames: number;
  words: Array<{ text: string; frame: number }>;
}

/**
 * The script spoken, unit by unit, with the pause set between units, normalized together. `assemble`
 * strings a selection of the units into the sequence to warp, so a unit found missing from the media can
 * be left out and the rest warped again without speaking anything twice.
 */
export interface Rendition {
  units: readonly SpokenUnit[];
  gap: Float32Array;
  /** The espeak voice that spoke it. */
  voice: string;
}

export interface AssembledRendition {
  cepstra: Float32Array;
  frames: number;
  /** The units in `keep` order (all units; a unit left out has startFrame === endFrame at its place). */
  units: RenditionUnit[];
}

/** The units that `keep` says, each after a pause, and a pause at the end. */
export function assemble(rendition: Rendition, keep: readonly boolean[]): AssembledRendition {
  const gapFrames = rendition.gap.length / CEPSTRA;
  const frames = rendition.units.reduce((sum, unit, i) => sum + (keep[i] ? gapFrames + unit.frames : 0), gapFrames);
  const cepstra = new Float32Array(frames * CEPSTRA);
  const units: RenditionUnit[] = [];
  let at = 0;
  rendition.units.forEach((unit, i) => {
    if (!keep[i]) {
      units.push({ startFrame: at, endFrame: at, words: [] });
      return;
    }
    cepstra.set(rendition.gap, at * CEPSTRA);
    at += gapFrames;
    cepstra.set(unit.cepstra, at * CEPSTRA);
    units.push({
      startFrame: at,
      endFrame: at + unit.frames,
      words: unit.words.map((word) => ({ text: word.text, frame: at + word.frame })),
    });
    at += unit.frames;
  });
  cepstra.set(rendition.gap, at * CEPSTRA);
  return { cepstra, frames, units };
}

/** The espeak voice for a language tag (`auto` and unknown languages: English, said in the result). */
export function renditionVoice(language: string): string {
  const voice = language === 'auto' ? undefined : espeakVoiceForLanguage(language);
  if (!voice && language !== 'auto') {
    throw new UserFacingError(
      `espeak-ng has no voice for the language "${language}", so the script cannot be aligned; give a language such as en, de or fr.`,
    );
  }
  return voice?.identifier ?? espeakVoiceForLanguage('en')!.identifier;
}

/** How many words of the script the speaking rate is measured on. */
const CALIBRATION_WORDS = 200;

const countWords = (text: string): number => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/** Samples of sound in espeak's rendition of `text`, its own leading and trailing silence left out. */
function soundLength(samples: Int16Array): { from: number; to: number } {
  let from = 0;
  while (from < samples.length && Math.abs(samples[from]) < EDGE_LEVEL) from++;
  let to = samples.length;
  while (to > from && Math.abs(samples[to - 1]) < EDGE_LEVEL) to--;
  return { from, to };
}

/**
 * The espeak rate (words per minute) at which the rendition lasts as long as the media's speech: measured
 * on the script's first words, so the warp runs near its diagonal and a reader's pace is no obstacle.
 */
export function matchingRate(
  espeak: OwnEspeak,
  texts: readonly string[],
  voiceId: string,
  speechSeconds: number,
): number {
  const totalWords = texts.reduce((sum, text) => sum + countWords(text), 0);
  if (totalWords === 0 || !(speechSeconds > 0)) return ESPEAK_DEFAULT_RATE;
  const voice = espeak.openVoice(voiceId, ESPEAK_DEFAULT_RATE);
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

export function renderScript(
  espeak: OwnEspeak,
  texts: readonly string[],
  voiceId: string,
  rate: number,
  onProgress?: (fraction: number) => void,
): Rendition {
  const voice = espeak.openVoice(voiceId, Math.min(MAX_ESPEAK_RATE, Math.max(MIN_ESPEAK_RATE, rate)));
  const sampleRate = voice.sampleRate;
  const gap = computeFeatures(new Int16Array(Math.round(GAP_SECONDS * sampleRate)), sampleRate, {
    normalize: false,
  }).cepstra;
  const units: SpokenUnit[] = [];
  for (const [i, text] of texts.entries()) {
    // &, < and > become spaces, so espeak's positions in what it was given are positions in the text.
    const spoken = voice.synthesizeWords(text.replace(/[&<>]/g, ' '));
    const samples = concatSamples(spoken.samples);
    const { from, to } = soundLength(samples);
    const features = computeFeatures(samples.subarray(from, to), sampleRate, { normalize: false });
    const offsetSeconds = from / sampleRate;
    const toFrame = (seconds: number): number =>
      Math.min(features.frames, Math.max(0, Math.round((seconds - offsetSeconds) / FRAME_SECONDS)));
    const words = wordFrames(
      text,
      spoken.words.map((word) => ({ offset: word.offset, frame: toFrame(word.startSeconds) })),
      features.frames,
    );
    units.push({ cepstra: features.cepstra, frames: features.frames, words });
    onProgress?.((i + 1) / texts.length);
  }
  normalizeTogether([gap, ...units.map((unit) => unit.cepstra)]);
  return { units, gap, voice: voiceId };
}

/**
 * The text's own words (as written, punctuation kept: they become the cues' text), each starting where
 * espeak started the first word it said inside it; a word espeak said nothing for (a symbol, a dash) gets
 * a start shared out by characters between its neighbours.
 */
function wordFrames(
  text: string,
  events: ReadonlyArray<{ offset: number; frame: number }>,
  frames: number,
): Array<{ text: string; frame: number }> {
  const tokens = [...text.matchAll(/\S+/g)].map((match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
  const known = tokens.map((token) => {
    const inside = events.filter((event) => event.offset >= token.start && event.offset < token.end);
    return inside.length ? Math.min(...inside.map((event) => event.frame)) : undefined;
  });
  return tokens.map((token, i) => {
    if (known[i] !== undefined) return { text: token.text, frame: known[i] };
    let before = i - 1;
    while (before >= 0 && known[before] === undefined) before--;
    let after = i + 1;
    while (after < tokens.length && known[after] === undefined) after++;
    const [fromChar, fromFrame] = before >= 0 ? [tokens[before].start, known[before]!] : [0, 0];
    const [toChar, toFrame] = after < tokens.length ? [tokens[after].start, known[after]!] : [text.length, frames];
    const share = toChar > fromChar ? (token.start - fromChar) / (toChar - fromChar) : 0;
    return { text: token.text, frame: Math.round(fromFrame + share * (toFrame - fromFrame)) };
  });
}

/** Zero mean and unit variance per coefficient over all the pieces together. */
function normalizeTogether(pieces: readonly Float32Array[]): void {
  const frames = pieces.reduce((sum, piece) => sum + piece.length / CEPSTRA, 0);
  const joined = new Float32Array(frames * CEPSTRA);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  normalizeCepstra(joined, frames);
  at = 0;
  for (const piece of pieces) {
    piece.set(joined.subarray(at, at + piece.length));
    at += piece.length;
  }
}
