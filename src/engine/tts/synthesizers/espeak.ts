/**
 * The espeak-ng synthesizer (WebAssembly build), loaded once per process.
 * espeak keeps its voice and rate as global state, so every synthesis call re-applies the settings it
 * needs: two jobs sharing the process can then interleave chunks without hearing each other's voice.
 */
import type { EspeakNGWorker, EspeakRawVoice } from '@echogarden/espeak-ng-emscripten';
import { UserFacingError } from '../../../engine-api/protocol';

/** espeak's own rate at speed 1, in words per minute, and the range it accepts. */
export const ESPEAK_DEFAULT_RATE = 175;
const MIN_RATE = 80;
const MAX_RATE = 450;

let workerPromise: Promise<EspeakNGWorker> | undefined;
/** The settings last applied to the shared worker. */
const shared = { applied: '' };

/** A new espeak-ng instance: its own memory, so its own state from the start. */
async function newWorker(): Promise<EspeakNGWorker> {
  // A runtime import (kept external by the bundler): the module finds espeak-ng.data beside itself.
  const { default: init } = await import('@echogarden/espeak-ng-emscripten');
  const module = await init();
  return new module.eSpeakNGWorker();
}

function loadWorker(): Promise<EspeakNGWorker> {
  if (!workerPromise) {
    workerPromise = newWorker();
    // A failed load is not cached, so a later job can try again.
    workerPromise.catch(() => {
      workerPromise = undefined;
    });
  }
  return workerPromise;
}

/** The voices the installed espeak-ng offers, in its own order. */
export async function listEspeakVoices(): Promise<EspeakRawVoice[]> {
  return (await loadWorker()).list_voices();
}

/** espeak's rate in words per minute for a speed factor (1 = espeak's default 175). */
export function espeakRateForSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed <= 0) throw new TypeError(`Expected a positive speed, got ${speed}`);
  return Math.min(MAX_RATE, Math.max(MIN_RATE, Math.round(ESPEAK_DEFAULT_RATE * speed)));
}

/** espeak reads its input as SSML, so plain text must not be able to open tags or entities. */
export function escapeForSsml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface EspeakVoice {
  /** Sample rate of what `synthesize` returns (22050 Hz for espeak-ng). */
  readonly sampleRate: number;
  /** Synthesizes plain text; returns espeak's mono 16-bit sample blocks in order. */
  synthesize(text: string): Int16Array[];
  /**
   * Synthesizes plain text, handing each block over as espeak makes it (synchronously, in order), and
   * each word's start to `onWord` when given.
   */
  synthesizeTo(text: string, onBlock: (samples: Int16Array) => void, onWord?: (word: EspeakWord) => void): void;
  /** Synthesizes espeak's own markup (its SSML and `[[ ]]` phonemes): the caller escapes any text in it. */
  synthesizeMarkup(markup: string): Int16Array[];
  /** Synthesizes plain text and reports where each word starts in the audio: the truth for word timing. */
  synthesizeWords(text: string): { samples: Int16Array[]; words: EspeakWord[] };
}

export interface EspeakWord {
  /** The word as it stands in the text. */
  text: string;
  /** Where espeak started speaking it, in seconds from the start of the audio. */
  startSeconds: number;
  /** Where it stands in what espeak was given (the text with &, < and > escaped), from 0. */
  offset: number;
}

/**
 * Prepares an espeak voice by its identifier (e.g. `gmw/en-US`) at a rate in words per minute.
 * Throws a UserFacingError when espeak does not know the voice.
 */
export async function openEspeakVoice(identifier: string, rate: number): Promise<EspeakVoice> {
  return voiceOn(await loadWorker(), shared, identifier, rate);
}

export interface OwnEspeak {
  openVoice(identifier: string, rate: number): EspeakVoice;
}

/**
 * An espeak-ng instance of its own, for a caller that needs the same text to give the same samples every
 * time: espeak carries state from one synthesis to the next (its noise generator among it), so what the
 * shared instance says depends on what it said before. A new instance starts from the same state, so the
 * same calls in the same order give the same samples. It costs about a second and 30 MB, freed with it.
 */
export async function openOwnEspeak(): Promise<OwnEspeak> {
  const worker = await newWorker();
  const own = { applied: '' };
  return { openVoice: (identifier, rate) => voiceOn(worker, own, identifier, rate) };
}

function voiceOn(worker: EspeakNGWorker, state: { applied: string }, identifier: string, rate: number): EspeakVoice {
  const settings = JSON.stringify([identifier, rate]);
  const apply = (): void => {
    if (state.applied === settings) return;
    state.applied = '';
    if (worker.set_voice(identifier) !== 0) {
      throw new UserFacingError(`The espeak-ng voice "${identifier}" is not installed.`);
    }
    worker.set_rate(rate);
    state.applied = settings;
  };
  apply();
  const synthesizeTo = (
    text: string,
    onBlock: (samples: Int16Array) => void,
    onWord?: (word: EspeakWord) => void,
  ): void => {
    apply();
    const given = escapeForSsml(text);
    // The callback must return nothing: espeak stops synthesizing when it returns a truthy value.
    worker.synthesize(given, (samples, events) => {
      if (samples.length > 0) onBlock(samples);
      if (!onWord) return;
      for (const event of events) {
        if (event.type !== 'word') continue;
        const from = event.text_position - 1;
        onWord({
          text: given.slice(from, from + event.word_length),
          startSeconds: event.audio_position / 1000,
          offset: from,
        });
      }
    });
  };
  return {
    sampleRate: worker.get_samplerate(),
    synthesize(text) {
      const blocks: Int16Array[] = [];
      synthesizeTo(text, (samples) => void blocks.push(samples));
      return blocks;
    },
    synthesizeTo,
    synthesizeMarkup(markup) {
      apply();
      const blocks: Int16Array[] = [];
      worker.synthesize(markup, (samples) => {
        if (samples.length > 0) blocks.push(samples);
      });
      return blocks;
    },
    synthesizeWords(text) {
      apply();
      const samples: Int16Array[] = [];
      const words: EspeakWord[] = [];
      // Positions count characters of what espeak was given: plain text without &, < and > is given as it is.
      const given = escapeForSsml(text);
      worker.synthesize(given, (block, events) => {
        if (block.length > 0) samples.push(block);
        for (const event of events) {
          if (event.type !== 'word') continue;
          const from = event.text_position - 1;
          words.push({
            text: given.slice(from, from + event.word_length),
            startSeconds: event.audio_position / 1000,
            offset: from,
          });
        }
      });
      return { samples, words };
    },
  };
}
