/**
 * Which recognizer a speech-to-text model file is for, read from its first bytes: whisper.cpp's ggml files
 * start with the `ggml` magic, Parakeet models are GGUF files. The file decides, not its name, since an
 * imported model may be called anything.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export type SttEngineKind = 'whisper' | 'parakeet';

/** The 32-bit magic whisper.cpp writes first, 0x67676d6c, as its little-endian bytes. */
const GGML_MAGIC = Buffer.from([0x6c, 0x6d, 0x67, 0x67]);
const GGUF_MAGIC = Buffer.from('GGUF', 'ascii');

/** The recognizer for the model at `modelPath`, or undefined when the file is missing or neither format. */
export function sttModelKind(modelPath: string): SttEngineKind | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(modelPath, 'r');
  } catch {
    return undefined;
  }
  try {
    const magic = Buffer.alloc(4);
    if (readSync(descriptor, magic, 0, 4, 0) < 4) return undefined;
    if (magic.equals(GGML_MAGIC)) return 'whisper';
    if (magic.equals(GGUF_MAGIC)) return 'parakeet';
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}
