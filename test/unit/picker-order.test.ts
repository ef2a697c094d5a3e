import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createVoiceLibrary } from '../../src/voices/library';
import { licenseOpenness, pickerRows, type PickerContext } from '../../src/voices/picker-order';
import type { VoiceEntry } from '../../src/voices/voice-entry';
import { voiceIdFor } from '../../src/voices/voice-id';

const dataDir = mkdtempSync(path.join(tmpdir(), 'picker-order-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const library = createVoiceLibrary({ dataDir });

const GERMAN = voiceIdFor('espeak-ng', 'gmw/de');
const LJSPEECH = voiceIdFor('sherpa-onnx', 'piper-en-us-ljspeech-high');
const LESSAC = voiceIdFor('sherpa-onnx', 'piper-en-us-lessac-medium');
const THORSTEN = voiceIdFor('sherpa-onnx', 'piper-de-de-thorsten-medium');
const BELLA_V0 = voiceIdFor('sherpa-onnx', 'kokoro-en-v0.19#af_bella');
const BELLA_V1 = voiceIdFor('sherpa-onnx', 'kokoro-multi-lang-v1.0#af_bella');

/** The library's real entries, with the given voices marked installed (as the data directory would say). */
function entries(...installed: string[]): VoiceEntry[] {
  return library
    .entries()
    .map((entry) =>
      installed.includes(entry.voice.id) ? { ...entry, voice: { ...entry.voice, availability: 'ready' } } : entry,
    );
}

const context = (overrides: Partial<PickerContext> = {}): PickerContext => ({
  currentId: GERMAN,
  favourites: new Set(),
  uiLanguage: 'en',
  ...overrides,
});
const ids = (list: { entry: VoiceEntry }[]): string[] => list.map((row) => row.entry.voice.id);

describe('voice picker order', () => {
  it('puts the current voice first, then favourites, installed voices, the UI language, then the rest', () => {
    const rows = pickerRows(entries(THORSTEN), context({ favourites: new Set([LESSAC]) }));
    assert.equal(rows[0].entry.voice.id, GERMAN);
    assert.equal(rows[0].section, 'current');
    assert.equal(rows[1].entry.voice.id, LESSAC);
    assert.equal(rows[1].section, 'favourite');
    const sections = rows.map((row) => row.section);
    const firstOf = (section: string): number => sections.indexOf(section as never);
    assert.ok(
      firstOf('installed') < firstOf('your-language') && firstOf('your-language') < firstOf('other'),
      sections.join(),
    );
    assert.equal(rows.find((row) => row.section === 'installed' && row.tier === 'natural')?.entry.voice.id, THORSTEN);
    for (const row of rows.filter((row) => row.section === 'your-language'))
      assert.match(row.entry.voice.languageCode, /^en/);
  });

  it('lists the natural voices of the UI language before built-in ones, the public-domain voice before restrictive licences', () => {
    const rows = pickerRows(entries(LESSAC, THORSTEN), context());
    const installed = rows.filter((row) => row.section === 'installed');
    assert.equal(installed[0].entry.voice.id, LESSAC, 'the installed natural voice of the UI language first');
    const english = installed.filter((row) => row.entry.voice.languageCode.startsWith('en'));
    const firstBuiltin = english.findIndex((row) => row.tier === 'built-in');
    assert.ok(
      firstBuiltin > 0 && english.slice(firstBuiltin).every((row) => row.tier === 'built-in'),
      'natural, then built-in',
    );
    const mine = pickerRows(entries(), context()).filter((row) => row.section === 'your-language');
    assert.equal(mine[0].entry.voice.id, LJSPEECH, 'LJ Speech (public domain) leads the natural English voices');
    assert.ok(ids(mine).indexOf(LJSPEECH) < ids(mine).indexOf(LESSAC), 'public domain before the Blizzard licence');
  });

  it('shows each voice once: a Kokoro speaker two models offer appears for the installed model, else the newer one', () => {
    const plain = ids(pickerRows(entries(), context()));
    assert.equal(new Set(plain).size, plain.length, 'no id twice');
    assert.ok(plain.includes(BELLA_V1) && !plain.includes(BELLA_V0), 'v1.0 when neither is installed');
    const withOld = ids(pickerRows(entries(BELLA_V0), context()));
    assert.ok(withOld.includes(BELLA_V0) && !withOld.includes(BELLA_V1), 'the installed v0.19 speaker');
  });

  it('gives every row a tier, a state and, for catalog and built-in voices, a licence link', () => {
    const rows = pickerRows(entries(THORSTEN), context());
    for (const row of rows) {
      assert.ok(row.tier === 'natural' || row.tier === 'built-in');
      assert.ok(
        row.state === 'installed' || /^download, \d+ MB$/.test(row.state),
        `${row.entry.voice.name}: ${row.state}`,
      );
      assert.match(row.licenseUrl ?? '', /^https:\/\//, row.entry.voice.name);
    }
    assert.equal(rows.find((row) => row.entry.voice.id === THORSTEN)?.state, 'installed');
    assert.equal(rows.find((row) => row.entry.voice.id === GERMAN)?.tier, 'built-in');
  });

  it('ranks licences: public domain, then attribution licences, then the rest', () => {
    assert.equal(licenseOpenness('Public domain (LJ Speech dataset)'), 0);
    assert.equal(licenseOpenness('CC0-1.0'), 0);
    assert.equal(licenseOpenness('CC-BY-4.0 (Talrómur)'), 1);
    assert.equal(licenseOpenness('Apache-2.0'), 1);
    assert.equal(licenseOpenness('Flite (BSD-style, CMU)'), 1);
    assert.equal(licenseOpenness('Blizzard-2013-Lessac'), 2);
    assert.equal(licenseOpenness('GPL-2.0 (RHVoice)'), 2);
  });
});
