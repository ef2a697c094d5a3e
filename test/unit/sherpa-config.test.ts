import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SherpaVoiceModel } from '../../src/engine-api/protocol';
import { sherpaGenerateRequest, sherpaTtsConfig } from '../../src/engine/tts/synthesizers/sherpa-config';

const base = { speakerId: 0, espeakDataDir: '/d/runtime/espeak-ng-data' };
const settings = { guidanceScale: 2.5, language: null, threads: 2 };
const engineBase = { numThreads: 2, debug: 0, provider: 'cpu' };

describe('the sherpa-onnx configuration of neural voices', () => {
  it('loads a Piper voice as VITS with espeak-ng data', () => {
    const model: SherpaVoiceModel = { ...base, kind: 'vits', files: { model: '/m/v.onnx', tokens: '/m/tokens.txt' } };
    assert.deepEqual(sherpaTtsConfig(model, settings), {
      model: { ...engineBase, vits: { model: '/m/v.onnx', tokens: '/m/tokens.txt', dataDir: base.espeakDataDir } },
      maxNumSentences: 1,
    });
    assert.deepEqual(sherpaGenerateRequest(model, 'Hi.', 1.25, 32), { text: 'Hi.', sid: 0, speed: 1.25 });
  });

  it('gives Kokoro its voices file and, when multi-lingual, the requested language', () => {
    const files = { model: '/k/model.onnx', voices: '/k/voices.bin', tokens: '/k/tokens.txt' };
    const model: SherpaVoiceModel = { ...base, kind: 'kokoro', files, speakerId: 7 };
    assert.deepEqual(sherpaTtsConfig(model, { ...settings, language: 'fr' }).model.kokoro, {
      ...files,
      dataDir: base.espeakDataDir,
    });
    assert.equal(
      sherpaTtsConfig({ ...model, multiLingual: true }, { ...settings, language: 'fr' }).model.kokoro?.lang,
      'fr',
    );
    const spanishSpeaker: SherpaVoiceModel = { ...model, multiLingual: true, speakerLanguage: 'es' };
    assert.equal(
      sherpaTtsConfig(spanishSpeaker, settings).model.kokoro?.lang,
      'es',
      'a speaker speaks its own language by default',
    );
    assert.equal(
      sherpaTtsConfig(spanishSpeaker, { ...settings, language: 'fr' }).model.kokoro?.lang,
      'fr',
      'the job may ask for another',
    );
    assert.equal(
      sherpaTtsConfig({ ...model, speakerLanguage: 'es' }, settings).model.kokoro?.lang,
      undefined,
      'single-language models take none',
    );
    assert.equal(sherpaGenerateRequest(model, 'Hi.', 1, 32).sid, 7);
  });

  it('gives Kitten its model, voices and tokens only: its config takes no lexicon and no language', () => {
    const files = { model: '/c/model.fp16.onnx', voices: '/c/voices.bin', tokens: '/c/tokens.txt' };
    const model: SherpaVoiceModel = {
      ...base,
      kind: 'kitten',
      files: { ...files, lexicon: '/c/lexicon.txt' },
      speakerId: 5,
      multiLingual: true,
    };
    assert.deepEqual(sherpaTtsConfig(model, { ...settings, language: 'fr' }), {
      model: { ...engineBase, kitten: { ...files, dataDir: base.espeakDataDir } },
      maxNumSentences: 1,
    });
    assert.deepEqual(sherpaGenerateRequest(model, 'Hi.', 1.5, 32), { text: 'Hi.', sid: 5, speed: 1.5 });
    assert.throws(
      () => sherpaTtsConfig({ ...model, files: { model: '/c/model.fp16.onnx', tokens: '/c/tokens.txt' } }, settings),
      /kitten files voices/,
    );
  });

  it('gives Matcha its acoustic model and vocoder', () => {
    const files = { acousticModel: '/a.onnx', vocoder: '/voc.onnx', tokens: '/t.txt', lexicon: '/lex.txt' };
    assert.deepEqual(sherpaTtsConfig({ ...base, kind: 'matcha', files }, settings).model.matcha, {
      ...files,
      dataDir: base.espeakDataDir,
    });
  });

  it('passes steps and guidanceScale to ZipVoice, with its reference recording', () => {
    const files = { encoder: '/e.onnx', decoder: '/d.onnx', vocoder: '/v.onnx', tokens: '/t.txt' };
    const model: SherpaVoiceModel = {
      ...base,
      kind: 'zipvoice',
      files,
      reference: { audioPath: '/r.wav', text: 'Reference.' },
    };
    assert.deepEqual(sherpaTtsConfig(model, settings).model.zipvoice, {
      ...files,
      dataDir: base.espeakDataDir,
      guidanceScale: 2.5,
    });
    const reference = { samples: new Float32Array(4), sampleRate: 24_000 };
    assert.deepEqual(sherpaGenerateRequest(model, 'Hi.', 1, 16, reference).generationConfig, {
      speed: 1,
      sid: 0,
      numSteps: 16,
      referenceAudio: reference.samples,
      referenceSampleRate: 24_000,
      referenceText: 'Reference.',
    });
  });

  it('refuses a model without the files its family needs', () => {
    assert.throws(
      () => sherpaTtsConfig({ ...base, kind: 'kokoro', files: { model: '/m' } }, settings),
      /voices, tokens/,
    );
  });
});
