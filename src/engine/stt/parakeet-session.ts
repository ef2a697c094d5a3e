/** The Parakeet model loaded in the engine process (kept warm between jobs, like whisper's), and one transcription call. */
import { initParakeet, type ParakeetContext } from '@fugood/whisper.node';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { requireWhisper } from '../native-parts';
import { UserFacingError } from '../protocol';
import { modelNotInstalled } from './whisper-model-header';
import type { WhisperSegment } from './whisper-session';

let loaded: { modelPath: string; context: Promise<ParakeetContext> } | null = null;

/** The Parakeet context for `modelPath`, loaded once per engine process; another path replaces it. */
export async function loadParakeetModel(modelPath: string): Promise<ParakeetContext> {
  if (loaded?.modelPath === modelPath) return loaded.context;
  await access(modelPath).catch(() => {
    throw modelNotInstalled(modelPath);
  });
  await releaseParakeetModel();
  // The same native part as whisper.cpp: the binding ships both.
  await requireWhisper();
  const context = initParakeet({ filePath: modelPath, useGpu: false });
  loaded = { modelPath, context };
  try {
    return await context;
  } catch {
    loaded = null;
    throw new UserFacingError(
      `The speech-to-text model ${path.basename(modelPath)} could not be loaded as a Parakeet model; it may be damaged. Reinstall it.`,
    );
  }
}

/** Frees the loaded Parakeet model, if any. */
export async function releaseParakeetModel(): Promise<void> {
  if (!loaded) return;
  const previous = loaded.context;
  loaded = null;
  await (await previous.catch(() => null))?.release();
}

/**
 * Transcribes 16 kHz mono 16-bit PCM (the binding reads the ArrayBuffer as int16, as whisper's does).
 * Binding 1.1.3 returns the text as one segment spanning the whole call, times in milliseconds, with no
 * token times, progress or live callbacks: callers cut long audio into stretches to get finer times.
 */
export async function transcribeWithParakeet(context: ParakeetContext, pcm: Int16Array, threads: number): Promise<WhisperSegment[]> {
  const exact = pcm.byteOffset === 0 && pcm.byteLength === pcm.buffer.byteLength ? pcm : pcm.slice();
  const result = await context.transcribeData(exact.buffer as ArrayBuffer, { maxThreads: threads }).promise;
  return result.segments.map((segment) => ({ text: segment.text, startMs: segment.t0, endMs: segment.t1 }));
}
