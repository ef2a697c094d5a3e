import type { Voice, VoiceQuery } from '../../contract/types';
import { languageTagStartsWith } from '../../voices/language-tag';
import { matchesSearch, searchTermsFor } from '../../voices/voice-search';
import type { VoicePage } from '../../voices/library';
import { isReadyVoice } from '../../voices/voice-entry';

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/**
 * GET /voices over the voices the pool's ready devices announced, with the Local API's query semantics
 * (filters, sort, pages). A voice several devices have is listed once.
 */
export function listPoolVoices(voices: readonly Voice[], query: VoiceQuery): VoicePage {
  const unique = [...new Map(voices.map((voice) => [voice.id, voice])).values()];
  const matching = unique.filter((voice) => {
    if (query.scope === 'builtin' && voice.access?.scope !== 'builtin') return false;
    if (query.scope === 'personal' && voice.access?.scope !== 'personal') return false;
    if (query.scope === 'installed' && !isReadyVoice(voice)) return false;
    if (query.gender !== undefined && voice.gender !== query.gender) return false;
    if (query.languageCode && !languageTagStartsWith(voice.languageCode, query.languageCode)) return false;
    return !query.search || matchesSearch(searchTermsFor(voice.name, voice.languageCode), query.search);
  });
  const byName = (a: Voice, b: Voice): number =>
    collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const compare =
    query.sortBy === 'languageCode'
      ? (a: Voice, b: Voice) => collator.compare(a.languageCode, b.languageCode) || byName(a, b)
      : byName;
  const direction = query.sortDirection === 'desc' ? -1 : 1;
  matching.sort((a, b) => direction * compare(a, b));
  const start = (query.page - 1) * query.limit;
  return {
    items: matching.slice(start, start + query.limit),
    meta: {
      page: query.page,
      limit: query.limit,
      total: matching.length,
      totalPages: Math.ceil(matching.length / query.limit),
    },
  };
}
