/**
 * Where the models a transcription uses beside its whisper model live under `<data-dir>/models`: the Silero VAD
 * model and the diarization models. Read by the engine and by the doors that hand the engine a VAD model path.
 */
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';

export const VAD_MODEL_ENV = 'SPEECH_STUDIO_VAD_MODEL';

/** The engine configuration's `vadModel` (src/engine-api/engine-config.ts): a VAD model chosen by path, over the models folder's. */
export interface VadModelSetting {
  vadModel?: string;
}

export interface DiarizationModels {
  segmentation: string;
  embedding: string;
}

/** `<data-dir>/models` for a whisper model installed as `<data-dir>/models/whisper/<file>.bin`. */
export function modelsDirOf(whisperModelPath: string): string {
  return path.dirname(path.dirname(whisperModelPath));
}

/**
 * The Silero VAD model in whisper.cpp format: the configuration's `vadModel` (SPEECH_STUDIO_VAD_MODEL), else the newest
 * `<models-dir>/vad/ggml-silero-*.bin`. Null when there is none: transcription then runs without VAD.
 */
export function findVadModel(whisperModelPath: string, config: VadModelSetting): Promise<string | null> {
  return findVadModelIn(modelsDirOf(whisperModelPath), config);
}

/** The same, for a models folder (`<data-dir>/models`). */
export async function findVadModelIn(modelsDir: string, config: VadModelSetting): Promise<string | null> {
  const configured = config.vadModel?.trim();
  if (configured) return (await exists(configured)) ? configured : null;
  const vadDir = path.join(modelsDir, 'vad');
  const names = await readdir(vadDir).catch(() => [] as string[]);
  const candidates = names
    .filter((name) => /^ggml-silero-.*\.bin$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const newest = candidates.at(-1);
  return newest === undefined ? null : path.join(vadDir, newest);
}

/** `<models-dir>/diarization/{segmentation,embedding}.onnx` when both exist, else null. */
export async function findDiarizationModels(whisperModelPath: string): Promise<DiarizationModels | null> {
  const dir = path.join(modelsDirOf(whisperModelPath), 'diarization');
  const models = { segmentation: path.join(dir, 'segmentation.onnx'), embedding: path.join(dir, 'embedding.onnx') };
  return (await exists(models.segmentation)) && (await exists(models.embedding)) ? models : null;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
