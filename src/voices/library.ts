/**
 * The voice library: every voice Speech Studio can speak with, and the GET /voices query over them.
 *   - builtin, always ready: espeak-ng's voices for all its languages, Flite's English voices;
 *   - SVOX Pico's six voices, ready once their lingware is in the data directory;
 *   - neural voices (sherpa-onnx) from the model catalog, ready once installed;
 *   - voices the user adds as folders with a voice.json (see voice-manifest.ts).
 * Installed state is read from the data directory and kept until its voice folders change
 * (voice-folder-cache.ts), so installs, imports and removals show without a restart.
 */
import type { VoiceQuery } from '../contract/types';
import { builtinCatalog } from '../models/catalog';
import { espeakEntries, fliteEntries } from './builtin-voices';
import { catalogVoiceEntries } from './neural-voices';
import { picoEntries } from './pico-voices';
import { isReadyVoice, type IndexedEntry, type VoiceEntry } from './voice-entry';
import { VoiceFiles } from './voice-files';
import { VoiceFolderCache } from './voice-folder-cache';
import { manifestVoiceEntries } from './voice-manifest';
import { queryVoices, type VoicePage } from './voice-query';

export type { VoiceEntry } from './voice-entry';
export type { VoicePage } from './voice-query';

export interface VoiceLibrary {
  list(query: VoiceQuery): VoicePage;
  get(id: string): VoiceEntry | undefined;
  /** Every voice with what speaks it, read from the data directory once (ranking them needs the engine). */
  entries(): VoiceEntry[];
  /** true when at least one voice is ready */
  ttsInstalled(): boolean;
  /** Stops watching the voice folders (the server's close); a later call reads them again. */
  close(): void;
}

export interface VoiceLibraryOptions {
  /** The data directory whose models/ folder holds the installed voices; a function when it can change. */
  dataDir: string | (() => string);
}

/**
 * Creates the library of a data directory.
 *
 * @example createVoiceLibrary({ dataDir }).list({ scope: 'all', sortBy: 'name', sortDirection: 'asc', page: 1, limit: 20 })
 */
export function createVoiceLibrary(options: VoiceLibraryOptions): VoiceLibrary {
  const { dataDir } = options ?? {};
  if (typeof dataDir !== 'function' && (typeof dataDir !== 'string' || dataDir === '')) {
    throw new TypeError(`Expected { dataDir: string }, got ${JSON.stringify(options)}`);
  }
  const builtin = [...espeakEntries(), ...fliteEntries()];
  const reserved = new Set(['svox-pico', ...builtinCatalog().models.map((entry) => entry.id)]);
  const read = (where: VoiceFiles): IndexedEntry[] => [
    ...builtin,
    ...picoEntries(where),
    ...catalogVoiceEntries(where),
    ...manifestVoiceEntries(where, reserved),
  ];
  let current: { dataDir: string; cache: VoiceFolderCache<IndexedEntry[]> } | undefined;
  const all = (): IndexedEntry[] => {
    const dir = typeof dataDir === 'function' ? dataDir() : dataDir;
    if (current?.dataDir !== dir) {
      current?.cache.close();
      const where = new VoiceFiles(dir);
      current = { dataDir: dir, cache: new VoiceFolderCache(where.modelsDir, () => read(where)) };
    }
    return current.cache.get();
  };

  return {
    list: (query) => queryVoices(all(), query),
    get(id) {
      const wanted = id.toLowerCase();
      const entry = all().find((candidate) => candidate.voice.id === wanted);
      if (!entry) return undefined;
      const { searchTerms: _terms, ...rest } = entry;
      return rest;
    },
    entries: () => all().map(({ searchTerms: _terms, ...rest }) => rest),
    ttsInstalled: () => builtin.some((entry) => isReadyVoice(entry.voice)),
    close: () => current?.cache.close(),
  };
}
