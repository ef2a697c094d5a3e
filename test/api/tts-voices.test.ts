import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { voiceIdFor } from '../../src/voices/voice-id';
import { assertErrorBody, request, useTestServer } from '../helpers/server';

describe('GET /voices', () => {
  const t = useTestServer();

  const get = async (query: string) => {
    const res = await request(`${t.base}/voices?${query}`);
    assert.equal(res.status, 200, res.body.toString());
    return res.json();
  };
  const names = async (query: string): Promise<string[]> =>
    (await get(query)).items.map((v: { name: string }) => v.name);

  it('pages the whole library in name order with exact meta', async () => {
    const first = await get('limit=3');
    assert.deepEqual(first.meta, { page: 1, limit: 3, total: 261, totalPages: 87 });
    assert.deepEqual(
      first.items.map((v: { name: string }) => v.name),
      ['Afrikaans', 'Albanian', 'Amharic'],
    );
    assert.deepEqual(await names('limit=3&page=86'), ['Uzbek', 'Vietnamese (Central)', 'Vietnamese (Northern)']);
    assert.deepEqual(await names('limit=3&page=87'), ['Vietnamese (Southern)', 'Welsh', 'xextan-test']);
    assert.deepEqual(await get('limit=3&page=88'), {
      items: [],
      meta: { page: 88, limit: 3, total: 261, totalPages: 87 },
    });
    assert.deepEqual((await get('')).meta, { page: 1, limit: 20, total: 261, totalPages: 14 });
  });

  it('filters by language code at subtag boundaries, gender and scope, and sorts both ways', async () => {
    assert.deepEqual(await names('languageCode=en-us&scope=builtin'), [
      'English (America, New York City)',
      'English (America)',
      'English (America) – Flite KAL',
      'English (America) – Flite RMS',
      'English (America) – Flite SLT',
    ]);
    assert.deepEqual(await names('languageCode=en&gender=male&scope=builtin&sortDirection=desc'), [
      'English (Scotland) – Flite AWB',
      'English (America) – Flite RMS',
      'English (America) – Flite KAL',
    ]);
    assert.deepEqual(await names('languageCode=de&sortBy=name'), [
      'German',
      'German – SVOX Pico',
      'Piper German, Thorsten (medium)',
    ]);
    assert.deepEqual(await names('gender=female&languageCode=en-GB'), [
      'English (Great Britain) – SVOX Pico',
      'Kokoro Alice (English, Great Britain) – v1.0',
      'Kokoro Emma (English, Great Britain)',
      'Kokoro Emma (English, Great Britain) – v1.0',
      'Kokoro Isabella (English, Great Britain)',
      'Kokoro Isabella (English, Great Britain) – v1.0',
      'Kokoro Lily (English, Great Britain) – v1.0',
      'Piper English (GB), Cori (high)',
      'Piper English (GB), Jenny Dioco (medium)',
    ]);
    const installed = await get('scope=installed&limit=1');
    assert.equal(installed.meta.total, 144);
    assert.equal((await get('scope=personal')).meta.total, 0);
    const byLanguage = await get('sortBy=languageCode&sortDirection=desc&limit=2');
    assert.deepEqual(
      byLanguage.items.map((v: { languageCode: string }) => v.languageCode),
      ['zh-CN', 'zh-CN'],
    );
  });

  it('searches names, language names and codes, ignoring case and accents', async () => {
    assert.deepEqual(await names('search=FRANCAIS&scope=builtin'), [
      'French (Belgium)',
      'French (France)',
      'French (Switzerland)',
    ]);
    assert.deepEqual(await names('search=espanol%20spain'), [
      'Piper Spanish (Spain), DaveFX (medium)',
      'Spanish (Spain)',
      'Spanish (Spain) – SVOX Pico',
    ]);
    assert.deepEqual(await names('search=nb'), ['Norwegian Bokmål']);
    const voice = (await get('search=flite%20slt')).items[0];
    assert.deepEqual(voice, {
      id: voiceIdFor('flite', 'slt'),
      name: 'English (America) – Flite SLT',
      languageCode: 'en-US',
      gender: 'female',
      ageGroup: 'adult',
      creationMode: 'builtin',
      availability: 'ready',
      access: { scope: 'builtin', canUse: true, license: 'Flite (BSD-style, CMU)' },
    });
  });

  it('answers 422 naming the parameter that is out of range', async () => {
    const cases: [string, RegExp][] = [
      ['limit=0', /^limit: must be from 1 to 100/],
      ['limit=101', /^limit: must be from 1 to 100/],
      ['page=0', /^page: must be from 1 to/],
      ['page=two', /^page: must be integer/],
      ['sortBy=age', /^sortBy: must be one of "name", "languageCode", "createdAt"/],
      ['sortDirection=up', /^sortDirection: must be one of "asc", "desc"/],
      ['gender=other', /^gender: must be one of "female", "male", "neutral"/],
      ['scope=everything', /^scope: must be one of "all", "builtin", "installed", "personal"/],
      ['colour=red', /^colour: is not a known parameter/],
    ];
    for (const [query, message] of cases) {
      assert.match(
        assertErrorBody(await request(`${t.base}/voices?${query}`), 422, 'INVALID_REQUEST').error.message,
        message,
        query,
      );
    }
  });
});
