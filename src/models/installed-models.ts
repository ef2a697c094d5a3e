import { promises as fs } from 'node:fs';
import path from 'node:path';
import { coversLanguage, parakeetLanguages } from './parakeet-languages';
import { sttModelHeaderOf, type SttEngineKind } from './stt-model-kind';

/** An installed speech-to-text model file: whisper.cpp's, or a Parakeet model (src/engine/stt/stt-model-kind.ts). */
export interface InstalledWhisperModel extends WhisperModelInfo {
  path: string;
  bytes: number;
}
export type InstalledSttModel = InstalledWhisperModel;

const SIZE_PREFERENCE = ['large-v3-turbo', 'large', 'medium', 'small', 'base', 'tiny'];

export const whisperModelsDir = (dataDir: string): string => path.join(dataDir, 'models', 'whisper');
export const parakeetModelsDir = (dataDir: string): string => path.join(dataDir, 'models', 'parakeet');
export const diarizationModelsDir = (dataDir: string): string => path.join(dataDir, 'models', 'diarization');

/** Every whisper ggml file in `<data-dir>/models/whisper/` is an installed STT model, catalogued or not. */
export async function listWhisperModels(dataDir: string): Promise<InstalledWhisperModel[]> {
  return listModelFiles(whisperModelsDir(dataDir));
}

/**
 * Every installed STT model: the ggml files in `models/whisper/` and the Parakeet files in
 * `models/parakeet/`, each with its engine (read from the file) and the languages it covers.
 */
export async function listSttModels(dataDir: string): Promise<InstalledSttModel[]> {
  const [whisper, parakeet] = await Promise.all([listWhisperModels(dataDir), listModelFiles(parakeetModelsDir(dataDir))]);
  return [...whisper, ...parakeet.filter((model) => model.engine === 'parakeet')];
}

async function listModelFiles(dir: string): Promise<InstalledSttModel[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const models: InstalledSttModel[] = [];
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) continue;
      // Read without blocking: the server lists models on requests. Undefined: not a ggml file at all.
      const header = await sttModelHeaderOf(file);
      if (!header) continue;
      const engine = header.kind;
      if (engine === 'parakeet') {
        const languages = parakeetLanguages(name);
        models.push({ name, path: file, bytes: stat.size, englishOnly: languages.length === 1 && languages[0] === 'en', engine, languages });
      } else {
        models.push({ name, path: file, bytes: stat.size, englishOnly: header.englishOnlyWhisper || /\.en([.-]|$)/.test(name), engine });
      }
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
  /** The recognizer; absent means whisper.cpp (devices of older versions announce no engine). */
  engine?: SttEngineKind;
  /** The language codes a Parakeet model covers; absent for whisper, which knows every language it is asked. */
  languages?: readonly string[];
}

const isEnglish = (language: string): boolean => language.toLowerCase() === 'en' || language.toLowerCase().startsWith('en-');
export const isParakeet = (model: WhisperModelInfo): boolean => model.engine === 'parakeet';

/**
 * English-only whisper models transcribe only English (not `auto`: they cannot detect a language);
 * a Parakeet model its own languages, and `auto` among them.
 */
export const servesLanguage = (model: WhisperModelInfo, language: string): boolean =>
  model.languages ? coversLanguage(model.languages, language) : !model.englishOnly || isEnglish(language);

/** What a request needs of the model beyond its language. */
export interface ModelNeeds {
  /** The request carries whisper-only decoding hints (the OpenAI door's prompt, translate, temperature). */
  whisperOnly?: boolean;
}

/**
 * The model a job uses: the configured one if installed and it serves the request; otherwise, for a named
 * language, a Parakeet model that covers it (more accurate and several times faster than whisper on a
 * CPU), else the largest whisper model that serves it (English-only models only for `en`, and preferred
 * there). For `auto` whisper comes first: it detects and reports the language, Parakeet does not.
 */
export function chooseWhisperModel<M extends WhisperModelInfo>(models: readonly M[], language: string, preferredName?: string, needs: ModelNeeds = {}): M | undefined {
  const usable = models.filter((m) => servesLanguage(m, language) && !(needs.whisperOnly && isParakeet(m)));
  const preferred = preferredName ? usable.find((m) => m.name === preferredName) : undefined;
  if (preferred) return preferred;
  const english = isEnglish(language);
  const parakeetFirst = language.trim().toLowerCase() === 'auto' ? -1 : 1;
  return [...usable].sort(
    (a, b) =>
      parakeetFirst * (Number(isParakeet(b)) - Number(isParakeet(a))) ||
      sizeRank(a.name) - sizeRank(b.name) ||
      Number(b.englishOnly && english) - Number(a.englishOnly && english) ||
      a.name.localeCompare(b.name),
  )[0];
}

export async function diarizationModelsInstalled(dataDir: string): Promise<boolean> {
  const dir = diarizationModelsDir(dataDir);
  const present = await Promise.all(
    ['segmentation.onnx', 'embedding.onnx'].map((name) => fs.stat(path.join(dir, name)).then((s) => s.isFile(), () => false)),
  );
  return present.every(Boolean);
}
