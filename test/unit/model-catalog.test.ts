import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { builtinCatalog, catalogProblems, installOrder, parseCatalog, type Catalog } from '../../src/models/catalog';
import { ModelError } from '../../src/models/model-error';
import { applyMirror } from '../../src/models/mirror';
import { bypassesProxy, proxyFor } from '../../src/models/proxy';

const ROOT = path.resolve(__dirname, '..', '..');
const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const catalogData = readJson('models/catalog.json') as Catalog;
const clone = (): Catalog => structuredClone(catalogData);

describe('the model catalog', () => {
  const catalog = builtinCatalog();
  const entry = (id: string) => catalog.models.find((e) => e.id === id);

  it('matches its JSON Schema', () => {
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(
      readJson('models/catalog.schema.json') as object,
    );
    assert.ok(validate(catalogData), JSON.stringify(validate.errors, null, 2));
    assert.deepEqual(catalogProblems(catalog), []);
  });

  it('has unique ids, https URLs, a licence, and a size and sha256 or an explicit record-on-first-download mark', () => {
    assert.equal(new Set(catalog.models.map((e) => e.id)).size, catalog.models.length);
    for (const model of catalog.models) {
      assert.ok(model.license.trim(), `${model.id} has a licence`);
      for (const file of model.files) {
        assert.equal(new URL(file.url).protocol, 'https:', file.url);
        assert.ok(file.source.trim(), `${model.id} says where its checksum comes from`);
        if (file.checksum === 'verify') {
          assert.match(file.sha256 ?? '', /^[0-9a-f]{64}$/, `${model.id} ${file.target}`);
          assert.ok(Number.isSafeInteger(file.size) && (file.size ?? 0) > 0, `${model.id} ${file.target} has a size`);
        } else {
          assert.equal(file.sha256, null, `${model.id} ${file.target}: no pretend checksum`);
        }
      }
    }
  });

  it('keeps every target inside models/, in the folders the rest of the product reads', () => {
    const targets = catalog.models.flatMap((e) => e.files.map((f) => f.target));
    assert.equal(new Set(targets).size, targets.length, 'no two entries install the same file');
    for (const target of targets) {
      assert.ok(!path.posix.isAbsolute(target) && !target.split('/').includes('..'), target);
      assert.match(
        target,
        /^(whisper\/ggml-[^/]+\.bin|parakeet\/ggml-parakeet-[^/]+\.bin|vad\/ggml-silero-[^/]+\.bin|diarization\/(segmentation|embedding)\.onnx|punctuation\/[^/]+|tts\/[^/]+\/[^/]+|llm\/[^/]+\.gguf)$/,
        target,
      );
    }
    for (const model of catalog.models.filter((e) => e.kind === 'tts-voice')) {
      assert.ok(
        model.files.every((f) => f.target.startsWith(`tts/${model.id}/`)),
        `${model.id} installs under tts/${model.id}/`,
      );
    }
  });

  it('lists the models the issue asks for', () => {
    for (const size of ['tiny', 'tiny-en', 'base', 'base-en', 'small', 'small-en', 'large-v3-turbo']) {
      assert.ok(entry(`whisper-${size}`), `whisper ${size}`);
    }
    assert.ok(
      catalog.models.some((e) => e.kind === 'stt' && /-q\d_\d$/.test(e.id)),
      'quantized whisper models',
    );
    for (const quantization of ['q4_0', 'q8_0']) {
      const parakeet = entry(`parakeet-tdt-0.6b-v3-${quantization}`);
      assert.equal(parakeet?.license, 'CC-BY-4.0', `Parakeet ${quantization}`);
      assert.equal(parakeet?.files[0].checksum, 'verify', `Parakeet ${quantization} has a published size and sha256`);
      assert.equal(parakeet?.languages.length, 25, 'English and 24 European languages');
    }
    assert.equal(entry('diarization-pyannote-segmentation-3.0')?.files[0].target, 'diarization/segmentation.onnx');
    assert.ok(catalog.models.some((e) => e.kind === 'speaker-embedding' && e.languages.includes('en')));
    assert.ok(catalog.models.some((e) => e.kind === 'punctuation'));
    assert.ok(catalog.models.some((e) => e.kind === 'vad'));
    const piper = catalog.models.filter((e) => e.engine === 'sherpa-onnx-vits');
    assert.ok(piper.length >= 30, `at least 30 Piper voices, not ${piper.length}`);
    assert.ok(
      new Set(piper.map((e) => e.languages[0].split('-')[0])).size >= 15,
      'Piper voices in at least 15 languages',
    );
    for (const voice of piper) assert.ok(voice.licenseUrl?.startsWith('https://'), `${voice.id} links its licence`);
    for (const voice of piper)
      assert.ok(
        voice.files.some((f) => f.target.endsWith('.onnx.json')),
        `${voice.id} brings its .onnx.json`,
      );
    assert.ok(
      catalog.models.some((e) => e.engine === 'sherpa-onnx-kokoro'),
      'Kokoro',
    );
    const kokoro = entry('kokoro-multi-lang-v1.0');
    assert.ok(kokoro && kokoro.languages.length >= 9, 'Kokoro v1.0 multi-language');
    assert.ok(kokoro.files.filter((f) => f.checksum === 'verify').length >= 2, 'its model and voices are verified');
    const kitten = entry('kitten-nano-en-v0.1-fp16');
    assert.deepEqual(
      [kitten?.engine, kitten?.license, kitten?.languages, kitten?.runtime],
      ['sherpa-onnx-kitten', 'Apache-2.0', ['en-US'], ['espeak-ng-data']],
    );
    assert.deepEqual(
      kitten?.files.map((f) => [f.role, f.target.split('/').at(-1)]),
      [
        ['model', 'model.fp16.onnx'],
        ['voices', 'voices.bin'],
        ['tokens', 'tokens.txt'],
      ],
    );
    assert.equal(
      kitten?.files.find((f) => f.role === 'voices')?.size,
      8 * 256 * 4,
      'voices.bin: 8 speakers × one 256-float style row',
    );
    for (const file of kitten?.files ?? [])
      assert.ok(file.url.startsWith('https://huggingface.co/csukuangfj/kitten-nano-en-v0_1-fp16/resolve/'), file.url);
  });

  it('installs the speaker-embedding model before the segmentation model that needs it', () => {
    assert.deepEqual(
      installOrder(catalog, 'diarization-pyannote-segmentation-3.0').map((e) => e.kind),
      ['speaker-embedding', 'diarization-segmentation'],
    );
  });

  it('rejects entries that escape models/, collide, require unknown or circular entries, or pretend a checksum', () => {
    const escaping = clone();
    escaping.models[0].files[0].target = 'whisper/../../outside.bin';
    assert.match(catalogProblems(escaping).join(), /leaves models/);

    const circular = clone();
    const embedding = circular.models.find((e) => e.kind === 'speaker-embedding');
    if (embedding) embedding.requires = ['diarization-pyannote-segmentation-3.0'];
    assert.match(catalogProblems(circular).join(), /requires itself/);

    const colliding = clone();
    colliding.models[1].files[0].target = colliding.models[0].files[0].target;
    assert.match(catalogProblems(colliding).join(), /both install/);

    const pretending = clone();
    pretending.models[0].files[0].checksum = 'record-on-first-download';
    assert.throws(
      () => parseCatalog(pretending),
      (e: unknown) => e instanceof ModelError && e.code === 'INVALID_CATALOG',
    );

    const plainHttp = clone();
    plainHttp.models[0].files[0].url = 'http://example.com/model.bin';
    assert.throws(() => parseCatalog(plainHttp), /schema/);
  });
});

describe('mirror and proxy settings', () => {
  it('rewrites an upstream URL to <mirror>/<host>/<path>', () => {
    const url = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.bin';
    assert.equal(
      applyMirror(url, 'https://models.corp.example/speech/'),
      'https://models.corp.example/speech/huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.bin',
    );
    assert.equal(applyMirror(url, undefined), url);
    assert.equal(applyMirror(url, '  '), url);
  });

  it('picks HTTPS_PROXY or HTTP_PROXY by scheme and honours NO_PROXY like curl', () => {
    const env = {
      HTTPS_PROXY: 'proxy.corp:3128',
      HTTP_PROXY: 'http://plain.corp:8080',
      NO_PROXY: '.internal, localhost,10.0.0.5:8080',
    };
    assert.equal(proxyFor(new URL('https://huggingface.co/x'), env)?.href, 'http://proxy.corp:3128/');
    assert.equal(proxyFor(new URL('http://mirror.example/x'), env)?.host, 'plain.corp:8080');
    assert.equal(proxyFor(new URL('https://models.internal/x'), env), null);
    assert.equal(proxyFor(new URL('https://internal/x'), env), null);
    assert.equal(proxyFor(new URL('http://localhost:9000/x'), env), null);
    assert.equal(proxyFor(new URL('https://huggingface.co/x'), {}), null);
    assert.ok(bypassesProxy(new URL('http://10.0.0.5:8080/'), '10.0.0.5:8080'));
    assert.ok(!bypassesProxy(new URL('http://10.0.0.5:9090/'), '10.0.0.5:8080'));
    assert.ok(bypassesProxy(new URL('https://anything.example/'), '*'));
    assert.ok(!bypassesProxy(new URL('https://notinternal/'), 'internal'));
    assert.throws(
      () => proxyFor(new URL('https://a.example/'), { HTTPS_PROXY: 'socks5://proxy:1080' }),
      /Only http:\/\/ proxies/,
    );
  });
});
