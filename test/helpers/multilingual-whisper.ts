/**
 * A multilingual variant of the synthetic random-weight whisper model. The shared synthetic model has an
 * English-only vocabulary (51 864 tokens), so whisper ignores any language asked of it; one more token row
 * (51 865, as in every multilingual whisper model) gives it language tokens, and whisper then puts the
 * asked language's token in its decoder prompt. The weights stay random: assert languages, never words.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { testModel } from './test-models';

const MULTILINGUAL_VOCABULARY = 51_865;
const TOKEN_EMBEDDING = 'decoder.token_embedding.weight';
/** Bytes per element of the ggml tensor types this model uses (0 = f32, 1 = f16). */
const ELEMENT_BYTES: Record<number, number> = { 0: 4, 1: 2 };

/** Writes the variant into `dir` under `name` and returns its path. */
export async function writeMultilingualWhisper(dir: string, name = 'ggml-synthetic-multilingual.bin'): Promise<string> {
  const source = await readFile(testModel('whisper', 'ggml-synthetic-random.bin'));
  let at = 0;
  const int32 = (): number => {
    const value = source.readInt32LE(at);
    at += 4;
    return value;
  };
  int32(); // magic
  const vocabularyAt = at;
  const hparams = Array.from({ length: 11 }, int32);
  const textState = hparams[6];
  const melCount = int32();
  const fftCount = int32();
  at += melCount * fftCount * 4;
  const words = int32();
  for (let i = 0; i < words; i++) {
    const length = int32();
    at += length;
  }

  while (at < source.length) {
    const tensorAt = at;
    const dims = int32();
    const nameLength = int32();
    const type = int32();
    const shape = Array.from({ length: dims }, int32);
    const tensorName = source.toString('utf8', at, at + nameLength);
    at += nameLength;
    const elementBytes = ELEMENT_BYTES[type];
    if (elementBytes === undefined) throw new Error(`Unexpected tensor type ${type} in the synthetic model`);
    const dataAt = at;
    at += shape.reduce((a, b) => a * b, 1) * elementBytes;
    if (tensorName !== TOKEN_EMBEDDING) continue;

    const extraRows = MULTILINGUAL_VOCABULARY - shape[1];
    const head = Buffer.from(source.subarray(0, dataAt));
    head.writeInt32LE(MULTILINGUAL_VOCABULARY, vocabularyAt);
    head.writeInt32LE(MULTILINGUAL_VOCABULARY, tensorAt + 12 + 4); // the embedding's second dimension
    const file = path.join(dir, name);
    await writeFile(
      file,
      Buffer.concat([
        head,
        source.subarray(dataAt, at),
        Buffer.alloc(extraRows * textState * elementBytes),
        source.subarray(at),
      ]),
    );
    return file;
  }
  throw new Error(`${TOKEN_EMBEDDING} not found in the synthetic model`);
}
