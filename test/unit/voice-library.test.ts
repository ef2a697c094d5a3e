import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VoiceQuery } from '../../src/api/types';
import { createVoiceLibrary } from '../../src/voices/library';
import { voiceIdFor } from '../../src/voices/voice-id';

const library = createVoiceLibrary();
const list = (query: Partial<VoiceQuery>) =>
  library.list({ scope: 'all', sortBy: 'name', sortDirection: 'asc', page: 1, limit: 100, ...query });
const names = (query: Partial<VoiceQuery>) => list(query).items.map((voice) => voice.name);

describe('voice library', () => {
  it('lists every espeak-ng voice as a ready builtin voice without a made-up gender', () => {
    const page = list({ limit: 100, page: 2 });
    assert.deepEqual(page.meta, { page: 2, limit: 100, total: 140, totalPages: 2 });
    const voice = list({ languageCode: 'en-US', search: 'america' }).items.find((item) => item.name === 'English (America)');
    assert.deepEqual(voice, {
      id: voiceIdFor('espeak-ng', 'gmw/en-US'),
      name: 'English (America)',
      languageCode: 'en-US',
      creationMode: 'builtin',
      availability: 'ready',
      access: { scope: 'builtin', canUse: true, license: 'GPL-3.0-or-later' },
    });
    assert.ok(library.ttsInstalled());
  });

  it('finds a voice by id, in any letter case, with its espeak identifier', () => {
    const id = voiceIdFor('espeak-ng', 'roa/fr');
    const entry = library.get(id.toUpperCase());
    assert.equal(entry?.voice.name, 'French (France)');
    assert.equal(entry?.engine, 'espeak-ng');
    assert.equal(entry?.engineVoiceId, 'roa/fr');
    assert.equal(entry?.createdAt, 0);
    assert.equal(library.get('00000000-0000-5000-8000-000000000000'), undefined);
  });

  it('filters by language code prefix at subtag boundaries', () => {
    assert.deepEqual(names({ languageCode: 'en' }), [
      'English (America, New York City)', 'English (America)', 'English (Caribbean)', 'English (Great Britain)',
      'English (Lancaster)', 'English (Received Pronunciation)', 'English (Scotland)', 'English (West Midlands)',
    ]);
    assert.deepEqual(names({ languageCode: 'en-us' }), ['English (America, New York City)', 'English (America)']);
    assert.equal(list({ languageCode: 'EN-GB' }).meta.total, 5);
    assert.equal(list({ languageCode: 'e' }).meta.total, 0);
  });

  it('sorts by language code with a stable order for equal codes', () => {
    const first = list({ sortBy: 'languageCode', limit: 5 });
    assert.deepEqual(first.items.map((voice) => [voice.languageCode, voice.name]), [
      ['af', 'Afrikaans'], ['am', 'Amharic'], ['an', 'Aragonese'], ['ar', 'Arabic'], ['as', 'Assamese'],
    ]);
    assert.deepEqual(first.meta, { page: 1, limit: 5, total: 140, totalPages: 28 });
    const last = list({ sortBy: 'languageCode', sortDirection: 'desc', limit: 3 }).items;
    assert.deepEqual(last.map((voice) => voice.languageCode), ['yue', 'yue', 'xex']);
    assert.ok(last[0].id > last[1].id, 'equal codes fall back to the id, reversed too');
  });

  it('sorts builtin voices by creation time, then by name', () => {
    assert.deepEqual(names({ sortBy: 'createdAt', limit: 3 }), ['Afrikaans', 'Albanian', 'Amharic']);
    assert.deepEqual(names({ sortBy: 'createdAt', sortDirection: 'desc', limit: 3 }), ['xextan-test', 'Welsh', 'Vietnamese (Southern)']);
  });

  it('searches names, codes and language names without regard to case or accents', () => {
    assert.deepEqual(names({ search: 'français' }), ['French (Belgium)', 'French (France)', 'French (Switzerland)']);
    assert.deepEqual(names({ search: 'Português' }), ['Portuguese (Brazil)', 'Portuguese (Portugal)']);
    assert.deepEqual(names({ search: 'PORTUGUES brazil' }), ['Portuguese (Brazil)']);
    assert.deepEqual(names({ search: 'deutsch' }), ['German']);
    assert.deepEqual(names({ search: 'maori' }), ['Māori']);
    assert.deepEqual(names({ search: 'bokmal' }), ['Norwegian Bokmål']);
    assert.deepEqual(names({ search: 'pt-br' }), ['Portuguese (Brazil)']);
    assert.deepEqual(names({ search: 'cantonese' }), ['Chinese (Cantonese, latin as Jyutping)', 'Chinese (Cantonese)']);
    assert.equal(list({ search: 'klingonese' }).meta.total, 0);
  });

  it('gives an honest empty page for a gender espeak does not declare', () => {
    assert.deepEqual(list({ gender: 'female' }), { items: [], meta: { page: 1, limit: 100, total: 0, totalPages: 0 } });
  });

  it('applies scopes: builtin and installed list all voices, personal none yet', () => {
    assert.equal(list({ scope: 'builtin' }).meta.total, 140);
    assert.equal(list({ scope: 'installed' }).meta.total, 140);
    assert.equal(list({ scope: 'personal' }).meta.total, 0);
  });

  it('pages deterministically and gives an empty page past the end with the right meta', () => {
    const pages = [1, 2, 3, 4, 5, 6, 7].flatMap((page) => list({ page, limit: 20 }).items.map((voice) => voice.id));
    assert.equal(new Set(pages).size, 140);
    assert.deepEqual(pages, list({ limit: 100 }).items.concat(list({ limit: 100, page: 2 }).items).map((voice) => voice.id));
    assert.deepEqual(list({ page: 8, limit: 20 }), { items: [], meta: { page: 8, limit: 20, total: 140, totalPages: 7 } });
  });
});
