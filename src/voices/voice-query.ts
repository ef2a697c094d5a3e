/** GET /voices over a list of voices: filters, search, sorting with a stable tie-break, and paging. */
import type { VoiceQuery } from '../contract/types';
import { languageTagStartsWith } from './language-tag';
import { isReadyVoice, type IndexedEntry } from './voice-entry';
import { matchesSearch } from './voice-search';

export interface VoicePage {
  items: IndexedEntry['voice'][];
  meta: { page: number; limit: number; total: number; totalPages: number };
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

export function queryVoices(entries: readonly IndexedEntry[], query: VoiceQuery): VoicePage {
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
}

function matchesQuery(entry: IndexedEntry, query: VoiceQuery): boolean {
  const { voice } = entry;
  if (!inScope(voice, query.scope)) return false;
  if (query.gender !== undefined && voice.gender !== query.gender) return false;
  if (query.languageCode && !languageTagStartsWith(voice.languageCode, query.languageCode)) return false;
  return !query.search || matchesSearch(entry.searchTerms, query.search);
}

function inScope(voice: IndexedEntry['voice'], scope: VoiceQuery['scope']): boolean {
  switch (scope) {
    case 'all':
      return true;
    case 'builtin':
      return voice.access.scope === 'builtin';
    case 'installed':
      return isReadyVoice(voice);
    case 'personal':
      return voice.access.scope === 'personal';
  }
}
