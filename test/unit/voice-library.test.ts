import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { VoiceQuery } from '../../src/contract/types';
import type { SherpaVoiceModel } from '../../src/engine-api/protocol';
import { createVoiceLibrary, type VoiceLibrary } from '../../src/voices/library';
import { voiceIdFor } from '../../src/voices/voice-id';
import { tempDir } from '../helpers/temp';

let dataDir: string;
let library: VoiceLibrary;
const list = (query: Partial<VoiceQuery>) =>
  library.list({ scope: 'all', sortBy: 'name', sortDirection: 'asc', page: 1, limit: 100, ...query });
const names = (query: Partial<VoiceQuery>) => list(query).items.map((voice) => voice.name);

/** espeak-ng 140 + Flite 4 (builtin) + SVOX Pico 6 + Piper 38 + Kokoro 11 + Kokoro v1.0 54 + Kitten nano 8 speakers (downloadable). */
const BUILTIN = 144;
const ALL = 261;

before(async () => {
  dataDir = await tempDir();
  library = createVoiceLibrary({ dataDir });
});
after(() => rm(dataDir, { recursive: true, force: true }));

describe('voice library', () => {
  it('lists every espeak-ng voice as a ready builtin voice without a made-up gender', () => {
    assert.deepEqual(list({ limit: 100, page: 2 }).meta, { page: 2, limit: 100, total: ALL, totalPages: 3 });
    const voice = list({ languageCode: 'en-US', search: 'america' }).items.find(
      (item) => item.name === 'English (America)',
    );
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

  it("lists Flite's English voices as ready builtin voices with their genders", () => {
    assert.deepEqual(
      list({ search: 'flite' }).items.map((v) => [v.name, v.languageCode, v.gender, v.availability, v.access.scope]),
      [
        ['English (America) – Flite KAL', 'en-US', 'male', 'ready', 'builtin'],
        ['English (America) – Flite RMS', 'en-US', 'male', 'ready', 'builtin'],
        ['English (America) – Flite SLT', 'en-US', 'female', 'ready', 'builtin'],
        ['English (Scotland) – Flite AWB', 'en-GB-scotland', 'male', 'ready', 'builtin'],
      ],
    );
    assert.equal(library.get(voiceIdFor('flite', 'slt'))?.ref.engine, 'flite');
  });

  it('finds a voice by id, in any letter case, with its engine reference', () => {
    const id = voiceIdFor('espeak-ng', 'roa/fr');
    const entry = library.get(id.toUpperCase());
    assert.equal(entry?.voice.name, 'French (France)');
    assert.equal(entry?.engine, 'espeak-ng');
    assert.equal(entry?.engineVoiceId, 'roa/fr');
    assert.deepEqual(entry?.ref, {
      engine: 'espeak-ng',
      engineVoiceId: 'roa/fr',
      languageCode: 'fr-FR',
      name: 'French (France)',
    });
    assert.equal(entry?.createdAt, 0);
    assert.equal(library.get('00000000-0000-5000-8000-000000000000'), undefined);
  });

  it('filters by language code prefix at subtag boundaries', () => {
    assert.deepEqual(names({ languageCode: 'en-gb' }), [
      'English (Great Britain)',
      'English (Great Britain) – SVOX Pico',
      'English (Lancaster)',
      'English (Received Pronunciation)',
      'English (Scotland)',
      'English (Scotland) – Flite AWB',
      'English (West Midlands)',
      'Kokoro Alice (English, Great Britain) – v1.0',
      'Kokoro Daniel (English, Great Britain) – v1.0',
      'Kokoro Emma (English, Great Britain)',
      'Kokoro Emma (English, Great Britain) – v1.0',
      'Kokoro Fable (English, Great Britain) – v1.0',
      'Kokoro George (English, Great Britain)',
      'Kokoro George (English, Great Britain) – v1.0',
      'Kokoro Isabella (English, Great Britain)',
      'Kokoro Isabella (English, Great Britain) – v1.0',
      'Kokoro Lewis (English, Great Britain)',
      'Kokoro Lewis (English, Great Britain) – v1.0',
      'Kokoro Lily (English, Great Britain) – v1.0',
      'Piper English (GB), Cori (high)',
      'Piper English (GB), Jenny Dioco (medium)',
    ]);
    assert.equal(list({ languageCode: 'en' }).meta.total, 8 + 4 + 2 + 4 + 11 + 28 + 8);
    assert.equal(list({ languageCode: 'EN-US', scope: 'builtin' }).meta.total, 5);
    assert.equal(list({ languageCode: 'e' }).meta.total, 0);
  });

  it('sorts by language code with a stable order for equal codes', () => {
    const first = list({ sortBy: 'languageCode', limit: 5 });
    assert.deepEqual(
      first.items.map((voice) => [voice.languageCode, voice.name]),
      [
        ['af', 'Afrikaans'],
        ['am', 'Amharic'],
        ['an', 'Aragonese'],
        ['ar', 'Arabic'],
        ['as', 'Assamese'],
      ],
    );
    assert.deepEqual(first.meta, { page: 1, limit: 5, total: ALL, totalPages: 53 });
    const last = list({ sortBy: 'languageCode', sortDirection: 'desc', limit: 3 }).items;
    assert.deepEqual(
      last.map((voice) => voice.languageCode),
      ['zh-CN', 'zh-CN', 'zh-CN'],
    );
    assert.ok(last[0].id > last[1].id && last[1].id > last[2].id, 'equal codes fall back to the id, reversed too');
  });

  it('sorts builtin voices by creation time, then by name', () => {
    assert.deepEqual(names({ sortBy: 'createdAt', limit: 3 }), ['Afrikaans', 'Albanian', 'Amharic']);
    assert.deepEqual(names({ sortBy: 'createdAt', sortDirection: 'desc', limit: 3 }), [
      'xextan-test',
      'Welsh',
      'Vietnamese (Southern)',
    ]);
  });

  it('searches names, codes and language names without regard to case or accents', () => {
    assert.deepEqual(names({ search: 'français', scope: 'builtin' }), [
      'French (Belgium)',
      'French (France)',
      'French (Switzerland)',
    ]);
    assert.deepEqual(names({ search: 'Português' }), [
      'Kokoro Alex (Portuguese, Brazil) – v1.0',
      'Kokoro Dora (Portuguese, Brazil) – v1.0',
      'Kokoro Santa (Portuguese, Brazil) – v1.0',
      'Piper Portuguese (Brazil), Cadu (medium)',
      'Piper Portuguese (Brazil), Faber (medium)',
      'Piper Portuguese (Portugal), Tugao (medium)',
      'Portuguese (Brazil)',
      'Portuguese (Portugal)',
    ]);
    assert.deepEqual(names({ search: 'PORTUGUES brazil' }), [
      'Kokoro Alex (Portuguese, Brazil) – v1.0',
      'Kokoro Dora (Portuguese, Brazil) – v1.0',
      'Kokoro Santa (Portuguese, Brazil) – v1.0',
      'Piper Portuguese (Brazil), Cadu (medium)',
      'Piper Portuguese (Brazil), Faber (medium)',
      'Portuguese (Brazil)',
    ]);
    assert.deepEqual(names({ search: 'deutsch' }), ['German', 'German – SVOX Pico', 'Piper German, Thorsten (medium)']);
    assert.deepEqual(names({ search: 'maori' }), ['Māori']);
    assert.deepEqual(names({ search: 'bokmal' }), ['Norwegian Bokmål']);
    assert.deepEqual(names({ search: 'pt-br' }), [
      'Kokoro Alex (Portuguese, Brazil) – v1.0',
      'Kokoro Dora (Portuguese, Brazil) – v1.0',
      'Kokoro Santa (Portuguese, Brazil) – v1.0',
      'Piper Portuguese (Brazil), Cadu (medium)',
      'Piper Portuguese (Brazil), Faber (medium)',
      'Portuguese (Brazil)',
    ]);
    assert.deepEqual(names({ search: 'kokoro bella' }), [
      'Kokoro Bella (English, America)',
      'Kokoro Bella (English, America) – v1.0',
      'Kokoro Isabella (English, Great Britain)',
      'Kokoro Isabella (English, Great Britain) – v1.0',
    ]);
    assert.equal(list({ search: 'klingonese' }).meta.total, 0);
  });

  it('filters by gender where it is known', () => {
    assert.deepEqual(names({ gender: 'male', scope: 'builtin' }), [
      'English (America) – Flite KAL',
      'English (America) – Flite RMS',
      'English (Scotland) – Flite AWB',
    ]);
    assert.equal(list({ gender: 'female' }).meta.total, 1 + 6 + 14 + 7 + 29 + 4);
    assert.equal(list({ gender: 'neutral' }).meta.total, 0);
  });

  it('applies scopes: builtin and installed list the shipped voices, personal none yet', () => {
    assert.equal(list({ scope: 'builtin' }).meta.total, BUILTIN);
    assert.equal(list({ scope: 'installed' }).meta.total, BUILTIN);
    assert.equal(list({ scope: 'personal' }).meta.total, 0);
  });

  it('pages deterministically and gives an empty page past the end with the right meta', () => {
    const pages = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].flatMap((page) =>
      list({ page, limit: 20 }).items.map((voice) => voice.id),
    );
    assert.equal(new Set(pages).size, ALL);
    assert.deepEqual(
      pages,
      list({ limit: 100 })
        .items.concat(list({ limit: 100, page: 2 }).items, list({ limit: 100, page: 3 }).items)
        .map((voice) => voice.id),
    );
    assert.deepEqual(list({ page: 15, limit: 20 }), {
      items: [],
      meta: { page: 15, limit: 20, total: ALL, totalPages: 14 },
    });
  });
});

describe('downloadable voices follow the data directory without a restart', () => {
  const lessac = voiceIdFor('sherpa-onnx', 'piper-en-us-lessac-medium');
  const picoFrench = voiceIdFor('svox-pico', 'fr-FR');

  it('lists catalog and SVOX Pico voices as not installed, then installing, then ready', async () => {
    assert.equal(library.get(lessac)?.voice.availability, 'not_installed');
    assert.equal(library.get(picoFrench)?.voice.availability, 'not_installed');
    await mkdir(path.join(dataDir, 'models', '.partial', 'piper-en-us-lessac-medium'), { recursive: true });
    assert.equal(library.get(lessac)?.voice.availability, 'installing');
    const dir = path.join(dataDir, 'models', 'tts', 'piper-en-us-lessac-medium');
    await mkdir(dir, { recursive: true });
    for (const name of ['en_US-lessac-medium.onnx', 'en_US-lessac-medium.onnx.json', 'tokens.txt'])
      await writeFile(path.join(dir, name), 'x');
    await rm(path.join(dataDir, 'models', '.partial'), { recursive: true });
    const entry = library.get(lessac)!;
    assert.equal(entry.voice.availability, 'ready');
    assert.ok(entry.createdAt > 0);
    assert.deepEqual(entry.voice.access, { scope: 'shared', canUse: true, license: 'Blizzard-2013-Lessac' });
    assert.deepEqual(entry.ref.model, {
      kind: 'vits',
      files: { model: path.join(dir, 'en_US-lessac-medium.onnx'), tokens: path.join(dir, 'tokens.txt') },
      speakerId: 0,
      espeakDataDir: path.join(dataDir, 'runtime', 'espeak-ng-data'),
    });
    assert.equal(list({ scope: 'installed' }).meta.total, BUILTIN + 1);

    const pico = path.join(dataDir, 'models', 'tts', 'svox-pico');
    await mkdir(pico, { recursive: true });
    await writeFile(path.join(pico, 'fr-FR_ta.bin'), 'x');
    assert.equal(library.get(picoFrench)?.voice.availability, 'not_installed', 'both lingware files are needed');
    await writeFile(path.join(pico, 'fr-FR_nk0_sg.bin'), 'x');
    assert.equal(library.get(picoFrench)?.voice.availability, 'ready');
    await rm(dir, { recursive: true });
    assert.equal(library.get(lessac)?.voice.availability, 'not_installed');
  });

  it("gives each Kokoro speaker its own stable voice with the model's speaker index", () => {
    const emma = library.get(voiceIdFor('sherpa-onnx', 'kokoro-en-v0.19#bf_emma'))!;
    assert.deepEqual(
      [emma.voice.name, emma.voice.languageCode, emma.voice.gender],
      ['Kokoro Emma (English, Great Britain)', 'en-GB', 'female'],
    );
    assert.equal((emma.ref.model as SherpaVoiceModel).speakerId, 7);
    assert.match(emma.voice.id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('lists Kokoro v1.0 speakers by their own language, with both lexicons and the language the model must speak', () => {
    const alex = library.get(voiceIdFor('sherpa-onnx', 'kokoro-multi-lang-v1.0#em_alex'))!;
    assert.deepEqual(
      [alex.voice.name, alex.voice.languageCode, alex.voice.gender],
      ['Kokoro Alex (Spanish) – v1.0', 'es-ES', 'male'],
    );
    const model = alex.ref.model as SherpaVoiceModel;
    assert.equal(model.speakerId, 29);
    assert.equal(model.multiLingual, true);
    assert.equal(model.speakerLanguage, 'es');
    const dir = path.join(dataDir, 'models', 'tts', 'kokoro-multi-lang-v1.0');
    assert.equal(
      model.files.lexicon,
      [path.join(dir, 'lexicon-us-en.txt'), path.join(dir, 'lexicon-zh.txt')].join(','),
    );
    const yunyang = library.get(voiceIdFor('sherpa-onnx', 'kokoro-multi-lang-v1.0#zm_yunyang'))!;
    assert.deepEqual([(yunyang.ref.model as SherpaVoiceModel).speakerId, yunyang.voice.languageCode], [53, 'zh-CN']);
    assert.equal(list({ search: 'kokoro', languageCode: 'ja' }).meta.total, 5);
  });

  it("lists Kitten nano's 8 speakers as en-US voices in voices.bin order, with Kitten's three files", () => {
    const kitten = list({ search: 'kitten', limit: 100 }).items;
    assert.deepEqual(
      kitten.map((voice) => [voice.name, voice.languageCode, voice.gender, voice.availability]),
      [
        ['Kitten Nano 2 Female (English, America)', 'en-US', 'female', 'not_installed'],
        ['Kitten Nano 2 Male (English, America)', 'en-US', 'male', 'not_installed'],
        ['Kitten Nano 3 Female (English, America)', 'en-US', 'female', 'not_installed'],
        ['Kitten Nano 3 Male (English, America)', 'en-US', 'male', 'not_installed'],
        ['Kitten Nano 4 Female (English, America)', 'en-US', 'female', 'not_installed'],
        ['Kitten Nano 4 Male (English, America)', 'en-US', 'male', 'not_installed'],
        ['Kitten Nano 5 Female (English, America)', 'en-US', 'female', 'not_installed'],
        ['Kitten Nano 5 Male (English, America)', 'en-US', 'male', 'not_installed'],
      ],
    );
    const voice = library.get(voiceIdFor('sherpa-onnx', 'kitten-nano-en-v0.1-fp16#expr-voice-4-f'))!;
    const dir = path.join(dataDir, 'models', 'tts', 'kitten-nano-en-v0.1-fp16');
    assert.deepEqual(voice.ref.model, {
      kind: 'kitten',
      files: {
        model: path.join(dir, 'model.fp16.onnx'),
        voices: path.join(dir, 'voices.bin'),
        tokens: path.join(dir, 'tokens.txt'),
      },
      speakerId: 5,
      espeakDataDir: path.join(dataDir, 'runtime', 'espeak-ng-data'),
    });
    assert.deepEqual(voice.voice.access, { scope: 'shared', canUse: true, license: 'Apache-2.0' });
  });

  it('reads a hand-installed Kitten model from a voice.json with engine kitten', async () => {
    const dir = path.join(dataDir, 'models', 'tts', 'my-kitten');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'voice.json'),
      JSON.stringify({
        name: 'My Kitten',
        engine: 'kitten',
        languageCode: 'en-US',
        files: { model: 'model.onnx', voices: 'voices.bin', tokens: 'tokens.txt' },
        speakers: [{ id: 1, name: 'Kit', gender: 'female' }],
      }),
    );
    const id = voiceIdFor('sherpa-onnx', 'custom/my-kitten#1');
    assert.equal(library.get(id)?.voice.availability, 'unavailable', 'files missing');
    for (const name of ['model.onnx', 'voices.bin', 'tokens.txt']) await writeFile(path.join(dir, name), 'x');
    const entry = library.get(id)!;
    assert.deepEqual(
      [entry.voice.name, entry.voice.availability, (entry.ref.model as SherpaVoiceModel).kind],
      ['Kit', 'ready', 'kitten'],
    );
    await rm(dir, { recursive: true });
  });

  it('reads voices added as folders with a voice.json, and lists a broken one as unavailable', async () => {
    const dir = path.join(dataDir, 'models', 'tts', 'my-narrator');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'voice.json'),
      JSON.stringify({
        name: 'My Narrator',
        engine: 'zipvoice',
        languageCode: 'en-GB',
        gender: 'female',
        license: 'CC-BY-4.0',
        files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', vocoder: 'vocos.onnx', tokens: 'tokens.txt' },
        reference: { audio: 'reference.wav', text: 'Hello.' },
      }),
    );
    const id = voiceIdFor('sherpa-onnx', 'custom/my-narrator#0');
    assert.equal(library.get(id)?.voice.availability, 'unavailable', 'files missing');
    for (const name of ['encoder.onnx', 'decoder.onnx', 'vocos.onnx', 'tokens.txt', 'reference.wav'])
      await writeFile(path.join(dir, name), 'x');
    const entry = library.get(id)!;
    assert.deepEqual(
      [entry.voice.availability, entry.voice.creationMode, entry.voice.access.scope],
      ['ready', 'cloned', 'personal'],
    );
    assert.deepEqual((entry.ref.model as SherpaVoiceModel).reference, {
      audioPath: path.join(dir, 'reference.wav'),
      text: 'Hello.',
    });
    assert.deepEqual(names({ scope: 'personal' }), ['My Narrator']);

    const broken = path.join(dataDir, 'models', 'tts', 'broken');
    await mkdir(broken, { recursive: true });
    await writeFile(
      path.join(broken, 'voice.json'),
      JSON.stringify({ name: 'B', engine: 'tacotron', languageCode: 'en', files: {} }),
    );
    const brokenVoice = library.get(voiceIdFor('sherpa-onnx', 'custom/broken#0'))!.voice;
    assert.equal(brokenVoice.availability, 'unavailable');
    assert.match(brokenVoice.name, /engine must be one of vits, kokoro, kitten, matcha, zipvoice/);
  });

  it('rejects a missing data directory option', () => {
    assert.throws(() => createVoiceLibrary(undefined as never), TypeError);
  });
});

describe("speakerVoices (the editor's speaker → voice setting)", () => {
  it('resolves ready voices and refuses unknown or missing ones', async () => {
    const { speakerVoices, SpeakerVoiceError } = await import('../../src/voices/speaker-voices');
    const french = voiceIdFor('espeak-ng', 'roa/fr');
    assert.deepEqual(speakerVoices(library, { ' Marie ': french }), {
      Marie: { engine: 'espeak-ng', engineVoiceId: 'roa/fr', languageCode: 'fr-FR', name: 'French (France)' },
    });
    assert.throws(() => speakerVoices(library, { Bob: '00000000-0000-5000-8000-000000000000' }), SpeakerVoiceError);
    assert.throws(
      () => speakerVoices(library, { Bob: voiceIdFor('svox-pico', 'it-IT') }),
      /for speaker "Bob" is not installed/,
    );
  });
});
