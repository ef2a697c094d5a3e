/**
 * Which recognizer a speech-to-text model file is for, read from its header: the file decides, not its
 * name, since an imported model may be called anything.
 *
 * Both whisper.cpp and its Parakeet loader (parakeet.cpp in @fugood/whisper.node 1.1.3) read the legacy
 * ggml container, magic `ggml` first; the published Parakeet files (Hugging Face `ggml-org/parakeet-GGUF`)
 * are `ggml-parakeet-*.bin` in that container despite the repository's name, and the binding cannot load
 * a real GGUF file. The two differ in their fixed int32 fields: Parakeet's 15 hyper-parameters are
 * followed by its mel filter bank size, `n_mels` (field 5) bands of `n_fft / 2 + 1` (field 7) bins.
 * Whisper's 11 are followed by its own filter size, so at those places it holds filter data instead.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

export type SttEngineKind = 'whisper' | 'parakeet';

/** The 32-bit magic whisper.cpp writes first, 0x67676d6c, as its little-endian bytes. */
const GGML_MAGIC = Buffer.from([0x6c, 0x6d, 0x67, 0x67]);
/** Magic plus Parakeet's 15 hyper-parameters plus the filter bank's two sizes. */
const HEADER_BYTES = 4 + 17 * 4;

/** The recognizer for the model at `modelPath`, or undefined when the file is missing or neither format. */
export function sttModelKind(modelPath: string): SttEngineKind | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(modelPath, 'r');
  } catch {
    return undefined;
  }
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    // Read from where a fresh descriptor stands, not at an offset: a model path that is a pipe then waits
    // for its bytes instead of failing with ESPIPE.
    return kindOfHeader(header, readSync(descriptor, header, 0, HEADER_BYTES, null));
  } finally {
    closeSync(descriptor);
  }
}

/** The same, without blocking the caller's event loop: for the server, which must never wait on a file. */
export async function sttModelKindOf(modelPath: string): Promise<SttEngineKind | undefined> {
  return (await sttModelHeaderOf(modelPath))?.kind;
}

/** Whisper's first vocabulary size with language tokens (whisper.cpp's `is_multilingual`: n_vocab >= 51865). */
const MULTILINGUAL_VOCABULARY = 51_865;

/**
 * The recognizer and, for whisper, whether the vocabulary has language tokens: an English-only model
 * (51 864 tokens) decodes English whatever it is told, whatever its file is called.
 */
export async function sttModelHeaderOf(modelPath: string): Promise<{ kind: SttEngineKind; englishOnlyWhisper: boolean } | undefined> {
  const handle = await open(modelPath, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, null);
    const kind = kindOfHeader(header, bytesRead);
    if (!kind) return undefined;
    return { kind, englishOnlyWhisper: kind === 'whisper' && bytesRead >= 8 && header.readInt32LE(4) < MULTILINGUAL_VOCABULARY };
  } finally {
    await handle.close();
  }
}

function kindOfHeader(header: Buffer, length: number): SttEngineKind | undefined {
  if (length < 4 || !header.subarray(0, 4).equals(GGML_MAGIC)) return undefined;
  return length === HEADER_BYTES && isParakeetHeader(header) ? 'parakeet' : 'whisper';
}

function isParakeetHeader(header: Buffer): boolean {
  const field = (index: number): number => header.readInt32LE(4 + 4 * index);
  const nMels = field(5);
  const nFft = field(7);
  return nMels > 0 && nFft > 0 && field(15) === nMels && field(16) === nFft / 2 + 1;
}
