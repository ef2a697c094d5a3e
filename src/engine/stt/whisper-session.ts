import { initWhisper, type WhisperContext } from '@fugood/whisper.node';
import { requireWhisper } from '../native-parts';
import os from 'node:os';
import path from 'node:path';
import { UserFacingError } from '../../engine-api/protocol';
import { warmModelSlot } from './warm-model';
import { engineConfig, type EngineConfig } from '../../engine-api/engine-config';

export const THREADS_ENV = 'SPEECH_STUDIO_THREADS';

/**
 * A whisper segment as the binding gives it: times in milliseconds of the audio that was passed in. With
 * token timestamps and `maxLen: 1` (what transcribePcm16 asks for) each one holds a single token.
 */
export interface WhisperSegment {
  text: string;
  startMs: number;
  endMs: number;
}

export interface WhisperOutput {
  /** The language whisper decoded with: the one asked for, or the detected one for `auto`. */
  language: string;
  /**
   * The language token whisper put at the start of its decoder prompt, as the binding reports it
   * (`whisper_full_lang_id`); null for an English-only model, which has no language tokens (the binding's
   * value is then left over from an earlier run).
   */
  promptLanguage: string | null;
  segments: WhisperSegment[];
  /** whisper's whole text, whole even where a token cut a character in two; absent when whisper did not run. */
  text?: string;
}

export interface WhisperRunOptions {
  /** A whisper language code, or `auto` to detect it (multilingual models only: see decodingLanguage). */
  language: string;
  /** Whether the model has language tokens (whisper-model-header.ts). */
  multilingual: boolean;
  threads: number;
  /** Fraction done, 0–1. */
  onProgress?: (fraction: number) => void;
  /** Segments as whisper finishes them, before the whole run ends. */
  onSegments?: (segments: WhisperSegment[]) => void;
  /** Initial prompt, translate-to-English and temperature (the OpenAI door's fields). */
  prompt?: string;
  translate?: boolean;
  temperature?: number;
  /** No temperature fallback (see WhisperHints.noFallback). */
  noFallback?: boolean;
}

// One model stays loaded between jobs (warm-model.ts).
const slot = warmModelSlot<WhisperContext>({
  prepare: requireWhisper,
  init: (modelPath) => initWhisper({ filePath: modelPath, useGpu: false }),
  loadFailed: (modelPath) =>
    new UserFacingError(
      `The speech-to-text model ${path.basename(modelPath)} could not be loaded; it may be damaged. Reinstall it.`,
    ),
});

/** The whisper context for `modelPath`, loaded once per engine process; another path replaces it. */
export const loadWhisperModel = (modelPath: string): Promise<WhisperContext> => slot.load(modelPath);

/** Frees the loaded whisper model, if any (before another recognizer loads its own). */
export const releaseWhisperModel = (): Promise<void> => slot.release();

/**
 * Transcribes 16 kHz mono 16-bit PCM. The binding reads the ArrayBuffer as int16 samples (not float32),
 * and reports segment times in milliseconds. Its `stop()` does not stop the work: cancel by ending the
 * process instead.
 */
export async function transcribePcm16(
  context: WhisperContext,
  pcm: Int16Array,
  options: WhisperRunOptions,
): Promise<WhisperOutput> {
  // The binding takes a whole ArrayBuffer: a view on a larger one is copied out first.
  const exact = pcm.byteOffset === 0 && pcm.byteLength === pcm.buffer.byteLength ? pcm : pcm.slice();
  const { promise } = context.transcribeData(exact.buffer as ArrayBuffer, {
    language: options.language,
    maxThreads: options.threads,
    // One token per segment, each with its own time: words are merged from them (recognized-words.ts).
    tokenTimestamps: true,
    maxLen: 1,
    // whisper's progress can pass 100 when a window's timestamps run past the audio: clamp it.
    onProgress: (percent) => options.onProgress?.(Math.min(100, Math.max(0, percent)) / 100),
    ...(options.onSegments
      ? {
          onNewSegments: (found: { segments: Array<{ text: string; t0: number; t1: number }> }) =>
            options.onSegments?.(
              found.segments.map((segment) => ({ text: segment.text, startMs: segment.t0, endMs: segment.t1 })),
            ),
        }
      : {}),
    ...(options.prompt ? { prompt: options.prompt } : {}),
    ...(options.translate ? { translate: true } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.noFallback ? { temperatureInc: 0 } : {}),
  });
  const result = await promise;
  const promptLanguage = options.multilingual ? result.language || null : null;
  return {
    // whisper_full_lang_id is only fresh when this run set it: take it for `auto`, never instead of a request.
    language: options.language === 'auto' ? (promptLanguage ?? options.language) : options.language,
    promptLanguage,
    segments: result.segments.map((segment) => ({ text: segment.text, startMs: segment.t0, endMs: segment.t1 })),
    text: result.result,
  };
}

/** The configuration's `sttThreads` (SPEECH_STUDIO_THREADS), else the CPU count capped at 8 (more threads stop helping whisper.cpp). */
export function sttThreadCount(config: Pick<EngineConfig, 'sttThreads'> = engineConfig()): number {
  const configured = config.sttThreads;
  if (configured !== undefined && Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, Math.min(8, os.availableParallelism()));
}
