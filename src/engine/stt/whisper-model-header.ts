/**
 * Reads what a whisper.cpp model file says about itself before it is loaded: whether its vocabulary has
 * language tokens. English-only models (`*.en`) have none, so whisper ignores any language asked of them
 * and its reported language id is left over from an earlier run; the engine must know this from the file,
 * since a model's name does not have to say it.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { UserFacingError } from '../../engine-api/protocol';

/** `ggml` as whisper.cpp writes it: the 32-bit magic 0x67676d6c in little-endian order. */
const GGML_MAGIC = 0x67676d6c;
/** The first vocabulary size with language tokens (whisper.cpp's `is_multilingual`: n_vocab >= 51865). */
const MULTILINGUAL_VOCABULARY = 51_865;

export interface WhisperModelHeader {
  vocabularySize: number;
  /** True when the model has language tokens, i.e. decodes in the language it is told. */
  multilingual: boolean;
}

/** The header of the ggml whisper model at `modelPath`; a sentence for the user when it is not one. */
export async function readWhisperModelHeader(modelPath: string): Promise<WhisperModelHeader> {
  const handle = await open(modelPath, 'r').catch(() => {
    throw modelNotInstalled(modelPath);
  });
  try {
    const bytes = Buffer.alloc(8);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, null);
    if (bytesRead < bytes.length || bytes.readUInt32LE(0) !== GGML_MAGIC) {
      throw new UserFacingError(
        `The speech-to-text model ${path.basename(modelPath)} is not a whisper.cpp model; reinstall it.`,
      );
    }
    const vocabularySize = bytes.readInt32LE(4);
    return { vocabularySize, multilingual: vocabularySize >= MULTILINGUAL_VOCABULARY };
  } finally {
    await handle.close();
  }
}

export function modelNotInstalled(modelPath: string): UserFacingError {
  return new UserFacingError(`The speech-to-text model ${path.basename(modelPath)} is not installed.`);
}
