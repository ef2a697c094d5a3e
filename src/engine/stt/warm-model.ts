/**
 * One speech-to-text model kept loaded ("warm") in the engine process between jobs, as whisper's and
 * Parakeet's sessions both do: loading blocks the process and costs seconds for big models. Asking for the
 * loaded path again returns it; another path releases it first; a model that fails to load leaves the
 * slot empty and is reported with the recognizer's own sentence.
 */
import { access } from 'node:fs/promises';
import { modelNotInstalled } from './whisper-model-header';

/** What a loaded model must offer: the binding's contexts free their native memory with `release`. */
export interface Releasable {
  release(): Promise<void>;
}

export interface WarmModelSlot<C extends Releasable> {
  /** The context for `modelPath`, loaded once; another path replaces the one loaded. */
  load(modelPath: string): Promise<C>;
  /** Frees the loaded model, if any (before another recognizer loads its own). */
  release(): Promise<void>;
}

export interface WarmModelLoader<C extends Releasable> {
  /** Runs before each load, outside the load's error handling: its own error (a missing native part) stands. */
  prepare(): Promise<void>;
  init(modelPath: string): Promise<C>;
  /** The error for a model file that is there but does not load. */
  loadFailed(modelPath: string): Error;
}

export function warmModelSlot<C extends Releasable>(loader: WarmModelLoader<C>): WarmModelSlot<C> {
  let loaded: { modelPath: string; context: Promise<C> } | null = null;

  const release = async (): Promise<void> => {
    if (!loaded) return;
    const previous = loaded.context;
    loaded = null;
    await (await previous.catch(() => null))?.release();
  };

  const load = async (modelPath: string): Promise<C> => {
    if (loaded?.modelPath === modelPath) return loaded.context;
    await access(modelPath).catch(() => {
      throw modelNotInstalled(modelPath);
    });
    await release();
    await loader.prepare();
    const context = loader.init(modelPath);
    loaded = { modelPath, context };
    try {
      return await context;
    } catch {
      loaded = null;
      throw loader.loadFailed(modelPath);
    }
  };

  return { load, release };
}
