/** The Parakeet model loaded in the engine process (kept warm between jobs, like whisper's), and one transcription call. */
import { initParakeet, type ParakeetContext } from '@fugood/whisper.node';
import path from 'node:path';
import { requireWhisper } from '../native-parts';
import { UserFacingError } from '../../engine-api/protocol';
import { warmModelSlot } from './warm-model';
import type { WhisperSegment } from './whisper-session';

const slot = warmModelSlot<ParakeetContext>({
  // The same native part as whisper.cpp: the binding ships both.
  prepare: requireWhisper,
  init: (modelPath) => initParakeet({ filePath: modelPath, useGpu: false }),
  loadFailed: (modelPath) =>
    new UserFacingError(
      `The speech-to-text model ${path.basename(modelPath)} could not be loaded as a Parakeet model; it may be damaged. Reinstall it.`,
    ),
});

/** The Parakeet context for `modelPath`, loaded once per engine process; another path replaces it. */
export const loadParakeetModel = (modelPath: string): Promise<ParakeetContext> => slot.load(modelPath);

/** Frees the loaded Parakeet model, if any. */
export const releaseParakeetModel = (): Promise<void> => slot.release();

/**
 * Transcribes 16 kHz mono 16-bit PCM (the binding reads the ArrayBuffer as int16, as whisper's does).
 * Binding 1.1.3 returns the text as one segment spanning the whole call, times in milliseconds, with no
 * token times, progress or live callbacks: callers cut long audio into stretches to get finer times.
 */
export async function transcribeWithParakeet(
  context: ParakeetContext,
  pcm: Int16Array,
  threads: number,
): Promise<WhisperSegment[]> {
  const exact = pcm.byteOffset === 0 && pcm.byteLength === pcm.buffer.byteLength ? pcm : pcm.slice();
  const result = await context.transcribeData(exact.buffer as ArrayBuffer, { maxThreads: threads }).promise;
  return result.segments.map((segment) => ({ text: segment.text, startMs: segment.t0, endMs: segment.t1 }));
}
