import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listEspeakVoices, openEspeakVoice } from '../../src/engine/tts/synthesizers/espeak';
import { toEspeakCatalog } from '../../src/voices/espeak-catalog';
import committed from '../../src/voices/espeak-voices.json';

describe('espeak-voices.json', () => {
  it('equals what the installed espeak-ng lists (regenerate: node --import tsx scripts/gen-espeak-voices.mjs)', async () => {
    assert.deepEqual(committed, toEspeakCatalog(await listEspeakVoices()));
  });

  it('names voices espeak-ng can select', async () => {
    for (const { identifier } of committed) await openEspeakVoice(identifier, 175);
  });
});

describe('toEspeakCatalog', () => {
  it('takes the first language espeak lists, cased as BCP 47, and sorts by identifier', () => {
    const catalog = toEspeakCatalog([
      {
        name: 'English (Scotland)',
        identifier: 'gmw/en-GB-scotland',
        languages: [
          { priority: 5, name: 'en-gb-scotland' },
          { priority: 4, name: 'en' },
        ],
      },
      {
        name: 'English (Received Pronunciation)',
        identifier: 'gmw/en-GB-x-rp',
        languages: [
          { priority: 5, name: 'en-gb-x-rp' },
          { priority: 4, name: 'en-gb' },
        ],
      },
      { name: 'Nothing', identifier: 'none', languages: [] },
      {
        name: 'English (Caribbean)',
        identifier: 'gmw/en-029',
        languages: [
          { priority: 5, name: 'en-029' },
          { priority: 10, name: 'en' },
        ],
      },
    ]);
    assert.deepEqual(catalog, [
      { identifier: 'gmw/en-029', name: 'English (Caribbean)', languageCode: 'en-029' },
      { identifier: 'gmw/en-GB-scotland', name: 'English (Scotland)', languageCode: 'en-GB-scotland' },
      { identifier: 'gmw/en-GB-x-rp', name: 'English (Received Pronunciation)', languageCode: 'en-GB-x-rp' },
    ]);
  });
});
