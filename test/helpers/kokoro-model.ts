/**
 * The shared synthetic Kokoro model "installed" where the catalog puts Kokoro v0.19, with that model's 11
 * speakers: its metadata says 11 speakers (sherpa-onnx checks voices.bin against it) and voices.bin holds
 * 11 seeded style rows of the synthetic graph's width, so the catalog's speaker names and order apply.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { builtinCatalog } from '../../src/models/catalog';
import { catalogSpeakerKeys } from '../../src/voices/neural-voices';
import { makeKittenVoices, onnxMetadata, withOnnxMetadata } from '../fixtures/kitten/make-kitten-model';
import { testModel } from './test-models';

export const KOKORO_CATALOG_ID = 'kokoro-en-v0.19';

export async function installSyntheticKokoro(
  dataDir: string,
): Promise<{ model: string; voices: string; tokens: string }> {
  const entry = builtinCatalog().models.find((e) => e.id === KOKORO_CATALOG_ID)!;
  const target = (role: string) => path.join(dataDir, 'models', entry.files.find((f) => f.role === role)!.target);
  const files = { model: target('model'), voices: target('voices'), tokens: target('tokens') };
  await mkdir(path.dirname(files.model), { recursive: true });
  const speakers = catalogSpeakerKeys(KOKORO_CATALOG_ID);
  const synthetic = await readFile(testModel('sherpa-synthetic/kokoro/model.onnx'));
  const metadata = onnxMetadata(synthetic);
  await writeFile(
    files.model,
    withOnnxMetadata(synthetic, {
      ...metadata,
      n_speakers: String(speakers.length),
      speaker2id: speakers.map((s, i) => `${s}->${i}`).join(','),
      id2speaker: speakers.map((s, i) => `${i}->${s}`).join(','),
      speaker_names: speakers.join(','),
    }),
  );
  const [rows, , width] = metadata.style_dim.split(',').map(Number);
  await writeFile(files.voices, makeKittenVoices(11, speakers.length, [rows, width]));
  await copyFile(testModel('sherpa-synthetic/kokoro/tokens.txt'), files.tokens);
  return files;
}
