import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileValidators } from '../../src/contract/validation';
import { admitStt, checkSttFields, findNamedSttModel, sttRefusal, type SttModels } from '../../src/jobs/admission';
import { parseCapabilities } from '../../src/link/capabilities';
import { parseCatalog, sttModelFileName } from '../../src/models/catalog';
import { chooseWhisperModel, type InstalledSttModel } from '../../src/models/installed-models';
import { PARAKEET_V3_LANGUAGES, parakeetLanguages } from '../../src/models/parakeet-languages';
import { refusal } from '../helpers/refusal';

const validators = compileValidators();
const ask = (fields: Record<string, string>) => checkSttFields(validators, fields);
const whisper = (name: string, englishOnly = false): InstalledSttModel => ({
  name,
  path: `/m/whisper/${name}`,
  bytes: 1,
  englishOnly,
  engine: 'whisper',
});
const parakeet = (name = 'ggml-parakeet-tdt-0.6b-v3-q4_0.bin'): InstalledSttModel => ({
  name,
  path: `/m/parakeet/${name}`,
  bytes: 1,
  englishOnly: false,
  engine: 'parakeet',
  languages: parakeetLanguages(name),
});
const installed = (...models: InstalledSttModel[]): SttModels<InstalledSttModel> => ({ models, diarization: false });

describe('choosing between whisper and Parakeet models', () => {
  const both = [whisper('ggml-small.bin'), whisper('ggml-base.en.bin', true), parakeet()];

  it('prefers Parakeet for a language it covers, whisper for others and for auto', () => {
    assert.equal(chooseWhisperModel(both, 'en')?.engine, 'parakeet');
    assert.equal(chooseWhisperModel(both, 'de-AT')?.engine, 'parakeet');
    assert.equal(chooseWhisperModel(both, 'ja')?.name, 'ggml-small.bin');
    assert.equal(chooseWhisperModel(both, 'auto')?.name, 'ggml-small.bin', 'whisper detects and reports the language');
    assert.equal(chooseWhisperModel([parakeet()], 'auto')?.engine, 'parakeet', 'Parakeet alone serves auto');
    assert.equal(chooseWhisperModel([parakeet()], 'ja'), undefined);
  });

  it('takes the configured model when it serves the language, Parakeet or whisper', () => {
    assert.equal(chooseWhisperModel(both, 'en', 'ggml-small.bin')?.name, 'ggml-small.bin');
    assert.equal(chooseWhisperModel(both, 'auto', parakeet().name)?.engine, 'parakeet');
    assert.equal(
      chooseWhisperModel(both, 'ja', parakeet().name)?.name,
      'ggml-small.bin',
      'falls back when it does not',
    );
  });

  it("knows the v3 model's 25 languages and the English-only v2", () => {
    assert.equal(PARAKEET_V3_LANGUAGES.length, 25);
    assert.deepEqual(parakeetLanguages('ggml-parakeet-tdt-0.6b-v2-q8_0.bin'), ['en']);
    assert.ok(parakeetLanguages('ggml-parakeet-tdt-0.6b-v3-q8_0.bin').includes('uk'));
  });
});

describe('admission with a Parakeet model', () => {
  it('refuses, naming the field, what a named Parakeet model cannot honour', () => {
    const models = installed(whisper('ggml-small.bin'), parakeet());
    const named = parakeet();
    for (const [hints, field] of [
      [{ prompt: 'Names: Zoë' }, 'prompt'],
      [{ translate: true }, 'translate'],
      [{ temperature: 0.4 }, 'temperature'],
    ] as const) {
      const error = refusal(() => admitStt(ask({ language: 'en' }), models, undefined, { named, hints }));
      assert.deepEqual([error.code, error.status], ['INVALID_REQUEST', 422]);
      assert.match(error.message, new RegExp(`^${field}: the Parakeet model ${named.name} `));
    }
    const language = refusal(() => admitStt(ask({ language: 'ja' }), models, undefined, { named }));
    assert.deepEqual(
      [
        language.status,
        /^language: the Parakeet model .* does not transcribe ja; it covers en, bg/.test(language.message),
      ],
      [422, true],
    );
    assert.equal(
      admitStt(ask({ language: 'fr' }), models, undefined, { named, hints: { temperature: 0 } }).model.engine,
      'parakeet',
    );
  });

  it('sends a request with whisper-only fields to a whisper model when none is named, and refuses it when only Parakeet is installed', () => {
    const models = installed(whisper('ggml-small.bin'), parakeet());
    assert.equal(admitStt(ask({ language: 'en' }), models).model.engine, 'parakeet');
    assert.equal(
      admitStt(ask({ language: 'en' }), models, parakeet().name, { hints: { prompt: 'x' } }).model.name,
      'ggml-small.bin',
    );
    const only = refusal(() =>
      admitStt(ask({ language: 'en' }), installed(parakeet()), undefined, { hints: { translate: true } }),
    );
    assert.deepEqual(
      [only.status, /^translate: the Parakeet model .* install a whisper model/.test(only.message)],
      [422, true],
    );
  });

  it('answers 409 when no installed model covers the language, saying what they cover', () => {
    const error = refusal(() => admitStt(ask({ language: 'ja' }), installed(parakeet())));
    assert.deepEqual([error.code, error.status], ['MODEL_NOT_INSTALLED', 409]);
    assert.match(error.message, /cover en, bg, hr/);
  });

  it("lets the relay route by a device's announced engine and languages", () => {
    const caps = parseCapabilities({
      version: 'x',
      queueCapacity: 1,
      tts: { voices: [] },
      stt: {
        models: [{ name: 'p.bin', englishOnly: false, engine: 'parakeet', languages: ['en', 'de'] }],
        diarization: false,
      },
    });
    assert.ok(caps);
    assert.equal(sttRefusal(ask({ language: 'de' }), caps.stt), undefined);
    assert.equal(sttRefusal(ask({ language: 'fr' }), caps.stt)?.code, 'MODEL_NOT_INSTALLED');
    assert.equal(
      parseCapabilities({
        ...caps,
        stt: { models: [{ name: 'p.bin', englishOnly: false, languages: 'en' }], diarization: false },
      }),
      undefined,
    );
  });
});

describe('naming an STT model by file name or catalog id', () => {
  const catalog = parseCatalog({
    version: 1,
    models: [
      {
        id: 'parakeet-tdt-0.6b-v3-q4_0',
        kind: 'stt',
        name: 'Parakeet',
        languages: ['en'],
        license: 'CC-BY-4.0',
        homepage: 'https://example.org',
        files: [
          {
            url: 'https://example.org/m.bin',
            target: 'parakeet/ggml-parakeet-tdt-0.6b-v3-q4_0.bin',
            size: 1,
            sha256: null,
            checksum: 'record-on-first-download',
            source: 'test',
          },
        ],
      },
    ],
  });

  it("finds the installed file by its name or by its catalog entry's id", () => {
    const models = [whisper('ggml-small.bin'), parakeet()];
    assert.equal(findNamedSttModel(models, 'ggml-small.bin', catalog)?.name, 'ggml-small.bin');
    assert.equal(findNamedSttModel(models, 'parakeet-tdt-0.6b-v3-q4_0', catalog)?.engine, 'parakeet');
    assert.equal(findNamedSttModel(models, 'no-such-model', catalog), undefined);
    assert.equal(sttModelFileName('parakeet-tdt-0.6b-v3-q4_0', catalog), 'ggml-parakeet-tdt-0.6b-v3-q4_0.bin');
    assert.equal(sttModelFileName('ggml-small.bin', catalog), 'ggml-small.bin');
  });
});
