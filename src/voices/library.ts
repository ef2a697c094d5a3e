/**
 * The voice library: every voice Speech Studio can speak with, and the GET /voices query over them.
 * Today that is espeak-ng's builtin voices, read from the generated `espeak-voices.json`.
 */
import type { Voice, VoiceQuery } from '../api/types';
import espeakVoices from './espeak-voices.json';
import { languageTagStartsWith } from './language-tag';
import { voiceIdFor } from './voice-id';
import { matchesSearch, searchTermsFor } from './voice-search';

export interface VoiceEntry {
  voice: Voice;
  engine: 'espeak-ng';
  engineVoiceId: string;
  createdAt: number;
}

export interface VoicePage {
  items: Voice[];
  meta: { page: number; limit: number; total: number; totalPages: number };
}

export interface VoiceLibrary {
  list(query: VoiceQuery): VoicePage;
  get(id: string): VoiceEntry | undefined;
  /** true when at least one voice is ready */
  ttsInstalled(): boolean;
}

/** Builtin voices all share one creation time, so sorting by it falls through to name, then id. */
const BUILTIN_CREATED_AT = 0;
const ESPEAK_LICENSE = 'GPL-3.0-or-later';

interface IndexedEntry extends VoiceEntry {
  searchTerms: string[];
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });

type Comparator = (a: IndexedEntry, b: IndexedEntry) => number;
const byId: Comparator = (a, b) => (a.voice.id < b.voice.id ? -1 : a.voice.id > b.voice.id ? 1 : 0);
const byName: Comparator = (a, b) => collator.compare(a.voice.name, b.voice.name) || byId(a, b);
const COMPARATORS: Record<VoiceQuery['sortBy'], Comparator> = {
  name: byName,
  languageCode: (a, b) => collator.compare(a.voice.languageCode, b.voice.languageCode) || byId(a, b),
  createdAt: (a, b) => a.createdAt - b.createdAt || byName(a, b),
};

export function createVoiceLibrary(): VoiceLibrary {
  const entries: IndexedEntry[] = espeakVoices.map(({ identifier, name, languageCode }) => ({
    voice: {
      id: voiceIdFor('espeak-ng', identifier),
      name,
      languageCode,
      creationMode: 'builtin',
      availability: 'ready',
      access: { scope: 'builtin', canUse: true, license: ESPEAK_LICENSE },
    },
    engine: 'espeak-ng',
    engineVoiceId: identifier,
    createdAt: BUILTIN_CREATED_AT,
    searchTerms: searchTermsFor(name, languageCode),
  }));
  const byVoiceId = new Map(entries.map((entry) => [entry.voice.id, entry]));

  return {
    list(query) {
      const matching = entries.filter((entry) => matchesQuery(entry, query));
      const compare = COMPARATORS[query.sortBy];
      const direction = query.sortDirection === 'desc' ? -1 : 1;
      matching.sort((a, b) => direction * compare(a, b));
      const start = (query.page - 1) * query.limit;
      return {
        items: matching.slice(start, start + query.limit).map((entry) => entry.voice),
        meta: {
          page: query.page,
          limit: query.limit,
          total: matching.length,
          totalPages: Math.ceil(matching.length / query.limit),
        },
      };
    },
    get(id) {
      const entry = byVoiceId.get(id.toLowerCase());
      return entry && { voice: entry.voice, engine: entry.engine, engineVoiceId: entry.engineVoiceId, createdAt: entry.createdAt };
    },
    ttsInstalled() {
      return entries.some((entry) => entry.voice.availability === 'ready');
    },
  };
}

function matchesQuery(entry: IndexedEntry, query: VoiceQuery): boolean {
  const { voice } = entry;
  if (!inScope(voice, query.scope)) return false;
  if (query.gender !== undefined && voice.gender !== query.gender) return false;
  if (query.languageCode && !languageTagStartsWith(voice.languageCode, query.languageCode)) return false;
  return !query.search || matchesSearch(entry.searchTerms, query.search);
}

function inScope(voice: Voice, scope: VoiceQuery['scope']): boolean {
  switch (scope) {
    case 'all':
      return true;
    case 'builtin':
      return voice.access.scope === 'builtin';
    case 'installed':
      return voice.availability === 'ready';
    case 'personal':
      return voice.access.scope === 'personal';
  }
}
