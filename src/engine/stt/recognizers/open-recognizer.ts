/** The recognizer for a model file, chosen by what the file is (stt-model-kind.ts), with one model loaded at a time. */
import { releaseParakeetModel } from '../parakeet-session';
import { sttModelKind } from '../stt-model-kind';
import { releaseWhisperModel } from '../whisper-session';
import { openParakeetRecognizer } from './parakeet';
import type { SttRecognizer } from './recognizer';
import { openWhisperRecognizer } from './whisper';

/** Opens the model at `modelPath` for a request in `requested` (a language code or `auto`). */
export async function openRecognizer(modelPath: string, requested: string): Promise<SttRecognizer> {
  if (sttModelKind(modelPath) === 'parakeet') {
    await releaseWhisperModel();
    return openParakeetRecognizer(modelPath, requested);
  }
  // whisper, and anything else: the whisper path says why a missing or foreign file cannot be used.
  await releaseParakeetModel();
  return openWhisperRecognizer(modelPath, requested);
}
