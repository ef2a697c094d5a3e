/** Installs the random-weight sherpa-onnx diarization models (segmentation + speaker embedding) in a data directory. */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { testModel } from './test-models';

/** The embedding model's file name as installed (enrolled voices carry it). */
export const EMBEDDING_MODEL_NAME = 'embedding.onnx';

export async function installDiarizationModels(dataDir: string): Promise<void> {
  const diarization = path.join(dataDir, 'models', 'diarization');
  await mkdir(diarization, { recursive: true });
  for (const name of ['segmentation.onnx', EMBEDDING_MODEL_NAME])
    await copyFile(testModel('sherpa-synthetic', 'diarization', name), path.join(diarization, name));
}
