import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface InstalledWhisperModel {
  name: string;
  path: string;
  bytes: number;
  /** `.en` models transcribe English only. */
  englishOnly: boolean;
}

/** whisper.cpp model files start with the ggml magic 0x67676d6c, stored little-endian. */
const GGML_MAGIC = Buffer.from('lmgg', 'latin1');
const SIZE_PREFERENCE = ['large-v3-turbo', 'large', 'medium', 'small', 'base', 'tiny'];

export const whisperModelsDir = (dataDir: string): string => path.join(dataDir, 'models', 'whisper');
export const diarizationModelsDir = (dataDir: string): string => path.join(dataDir, 'models', 'diarization');

async function hasGgmlMagic(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.equals(GGML_MAGIC);
  } finally {
    await handle.close();
  }
}

/** Every whisper ggml file in `<data-dir>/models/whisper/` is an installed STT model, catalogued or not. */
export async function listWhisperModels(dataDir: string): Promise<InstalledWhisperModel[]> {
  const dir = whisperModelsDir(dataDir);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const models: InstalledWhisperModel[] = [];
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile() || !(await hasGgmlMagic(file))) continue;
      models.push({ name, path: file, bytes: stat.size, englishOnly: /\.en([.-]|$)/.test(name) });
    } catch {
      // A file that vanished or cannot be read is not an installed model.
    }
  }
  return models;
}

function sizeRank(name: string): number {
  const index = SIZE_PREFERENCE.findIndex((size) => name.includes(size));
  return index < 0 ? SIZE_PREFERENCE.length : index;
}

/** What choosing a model needs to know of it: an installed file, or a model a device announced to the relay. */
export interface WhisperModelInfo {
  name: string;
  englishOnly: boolean;
}

const isEnglish = (language: string): boolean => language.toLowerCase() === 'en' || language.toLowerCase().startsWith('en-');

/** English-only models transcribe only English (not `auto`: they cannot detect a language). */
export const servesLanguage = (model: WhisperModelInfo, language: string): boolean => !model.englishOnly || isEnglish(language);

/**
 * The model a job uses: the configured one if installed and it serves the language; otherwise the largest
 * model that serves it (English-only models only for `en`, and preferred there).
 */
export function chooseWhisperModel<M extends WhisperModelInfo>(models: readonly M[], language: string, preferredName?: string): M | undefined {
  const usable = models.filter((m) => servesLanguage(m, language));
  const preferred = preferredName ? usable.find((m) => m.name === preferredName) : undefined;
  if (preferred) return preferred;
  const english = isEnglish(language);
  return [...usable].sort(
    (a, b) => sizeRank(a.name) - sizeRank(b.name) || Number(b.englishOnly && english) - Number(a.englishOnly && english) || a.name.localeCompare(b.name),
  )[0];
}

export async function diarizationModelsInstalled(dataDir: string): Promise<boolean> {
  const dir = diarizationModelsDir(dataDir);
  const present = await Promise.all(
    ['segmentation.onnx', 'embedding.onnx'].map((name) => fs.stat(path.join(dir, name)).then((s) => s.isFile(), () => false)),
  );
  return present.every(Boolean);
}
