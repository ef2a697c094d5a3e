/**
 * The GGUF language models installed under `<data-dir>/models/llm/`, and the one to use: asked for by name or
 * path, else the largest that leaves the machine most of its memory (a model takes about its file size in
 * memory, plus its context), as the recognizer is chosen.
 */
import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ggufHeaderProblem } from './gguf-header';
import { entryBytes, type CatalogEntry } from './catalog';
import { modelsDir } from './model-paths';

export const languageModelsDir = (dataDir: string): string => path.join(modelsDir(dataDir), 'llm');

export interface InstalledLanguageModel {
  path: string;
  bytes: number;
}

/** A model may use at most this share of the machine's memory. */
export const LANGUAGE_MODEL_MEMORY_SHARE = 0.4;

export async function installedLanguageModels(dataDir: string): Promise<InstalledLanguageModel[]> {
  const dir = languageModelsDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const models = await Promise.all(
    names.filter((name) => name.toLowerCase().endsWith('.gguf')).map(async (name) => ({ path: path.join(dir, name), bytes: (await stat(path.join(dir, name))).size })),
  );
  return models.sort((a, b) => a.bytes - b.bytes || a.path.localeCompare(b.path));
}

/** The largest model within the memory share; the smallest when none is (it may still run, slowly). */
export function chooseLanguageModel(models: readonly InstalledLanguageModel[], memoryBytes = os.totalmem()): InstalledLanguageModel | undefined {
  const fitting = models.filter((model) => model.bytes <= memoryBytes * LANGUAGE_MODEL_MEMORY_SHARE);
  return fitting.at(-1) ?? models[0];
}

export class NoLanguageModelError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'NoLanguageModelError';
  }
}

/**
 * The model file to use: `asked` as a path to a .gguf file, or the name of one installed; else the choice by
 * memory. Throws NoLanguageModelError with a sentence saying how to install one.
 */
export async function resolveLanguageModel(dataDir: string, asked?: string): Promise<string> {
  const file = await findLanguageModel(dataDir, asked);
  const problem = await ggufHeaderProblem(file);
  if (problem) throw new NoLanguageModelError(`The language model ${file} cannot be used: ${problem}. Install it again, or choose another.`);
  return file;
}

async function findLanguageModel(dataDir: string, asked?: string): Promise<string> {
  const installed = await installedLanguageModels(dataDir);
  if (asked) {
    const named = installed.find((model) => path.basename(model.path) === asked || path.basename(model.path, '.gguf') === asked);
    if (named) return named.path;
    const file = path.resolve(asked);
    const found = await stat(file).catch(() => undefined);
    if (found?.isFile() && file.toLowerCase().endsWith('.gguf')) return file;
    throw new NoLanguageModelError(`No language model "${asked}": give a .gguf file or the name of one in ${languageModelsDir(dataDir)}.`);
  }
  const chosen = chooseLanguageModel(installed);
  if (!chosen) throw new NoLanguageModelError(`No language model is installed: install one (e.g. \`models install qwen2.5-1.5b-instruct-q4\`) or put a .gguf file in ${languageModelsDir(dataDir)}.`);
  return chosen.path;
}

/** The catalog's language model to suggest for a machine with this much memory: the largest within the share. */
export function recommendLanguageModel(catalog: readonly CatalogEntry[], memoryBytes = os.totalmem()): CatalogEntry | undefined {
  const models = catalog.filter((entry) => entry.kind === 'llm').map((entry) => ({ entry, bytes: entryBytes(entry) ?? 0 })).sort((a, b) => a.bytes - b.bytes);
  return (models.filter((model) => model.bytes <= memoryBytes * LANGUAGE_MODEL_MEMORY_SHARE).at(-1) ?? models[0])?.entry;
}
