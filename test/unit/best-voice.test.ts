import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Voice } from '../../src/contract/types';
import { builtinCatalog } from '../../src/models/catalog';
import {
  bestReadyVoice,
  bestVoiceFor,
  languageChain,
  recommendedVoice,
  voiceQuality,
  type RankableVoice,
} from '../../src/voices/best-voice';
import { createVoiceLibrary, type VoiceEntry, type VoiceLibrary } from '../../src/voices/library';
import { sampleSentence } from '../../src/voices/sample-sentences';
import { voiceDownload } from '../../src/voices/voice-download';
import { tempDir } from '../helpers/temp';

function voice(
  engine: RankableVoice['engine'],
  engineVoiceId: string,
  languageCode: string,
  availability: Voice['availability'] = 'ready',
): RankableVoice {
  return {
    engine,
    engineVoiceId,
    voice: { id: `${engine}:${engineVoiceId}`, name: engineVoiceId, languageCode, availability },
  };
}

const ESPEAK_US = voice('espeak-ng', 'gmw/en-US', 'en-US');
const ESPEAK_GB = voice('espeak-ng', 'gmw/en', 'en-GB');
const FLITE_KAL = voice('flite', 'kal16', 'en-US');
const FLITE_SLT = voice('flite', 'slt', 'en-US');
const PICO_US = voice('svox-pico', 'en-US', 'en-US');
const PIPER_MEDIUM = voice('sherpa-onnx', 'piper-en-us-lessac-medium', 'en-US');
const PIPER_HIGH_GB = voice('sherpa-onnx', 'piper-en-gb-cori-high', 'en-GB');
const PIPER_LOW_GR = voice('sherpa-onnx', 'piper-el-gr-rapunzelina-low', 'el-GR');
const KITTEN = voice('sherpa-onnx', 'kitten-nano-en-v0_2#expr-voice-2-f', 'en-US');
const KOKORO_V1 = voice('sherpa-onnx', 'kokoro-multi-lang-v1.0#af_heart', 'en-US');
const KOKORO_V019 = voice('sherpa-onnx', 'kokoro-en-v0.19#af_bella', 'en-US');
const CUSTOM = voice('sherpa-onnx', 'custom/narrator#0', 'en-GB');
const ESPEAK_DE = voice('espeak-ng', 'gmw/de', 'de-DE');
const ESPEAK_PT_BR = voice('espeak-ng', 'roa/pt-BR', 'pt-BR');
const ESPEAK_PT = voice('espeak-ng', 'roa/pt', 'pt-PT');

describe('best voice', () => {
  it('ranks neural voices (Kokoro, then Piper by quality tier, Kitten) over SVOX Pico and Flite over espeak-ng', () => {
    const order = [
      KOKORO_V1,
      KOKORO_V019,
      PIPER_HIGH_GB,
      PIPER_MEDIUM,
      KITTEN,
      PIPER_LOW_GR,
      CUSTOM,
      PICO_US,
      FLITE_SLT,
      FLITE_KAL,
      ESPEAK_US,
    ];
    const scores = order.map(voiceQuality);
    assert.deepEqual(
      [...scores].sort((a, b) => b - a),
      scores,
      `scores in order: ${scores.join(', ')}`,
    );
    assert.equal(new Set(scores).size, scores.length, 'no two tiers tie');
  });

  it('picks the best voice of the editor language, then of its primary language, then English', () => {
    const all = [ESPEAK_US, ESPEAK_GB, FLITE_SLT, FLITE_KAL, ESPEAK_DE, ESPEAK_PT, ESPEAK_PT_BR];
    assert.equal(bestVoiceFor(all, 'en'), FLITE_SLT);
    assert.equal(bestVoiceFor(all, 'de'), ESPEAK_DE);
    assert.equal(bestVoiceFor(all, 'pt-br'), ESPEAK_PT_BR, 'the region the editor names');
    assert.equal(bestVoiceFor(all, 'pt'), ESPEAK_PT, 'tie: by name');
    assert.equal(bestVoiceFor([ESPEAK_US, ESPEAK_PT], 'pt-BR'), ESPEAK_PT, 'the primary language before English');
    assert.equal(bestVoiceFor(all, 'ja'), FLITE_SLT, 'a language without voices: English');
    assert.equal(bestVoiceFor([ESPEAK_DE], 'ja'), undefined);
    assert.deepEqual(languageChain('pt-BR'), ['pt-br', 'pt', 'en-us', 'en']);
    assert.deepEqual(languageChain(''), ['en', 'en-us']);
  });

  it('a neural voice of the language wins over builtin voices; among equals the exact tag (en: en-US) wins', () => {
    assert.equal(bestVoiceFor([ESPEAK_US, FLITE_SLT, PIPER_MEDIUM], 'en'), PIPER_MEDIUM);
    assert.equal(
      bestVoiceFor([PIPER_MEDIUM, PIPER_HIGH_GB], 'en-US'),
      PIPER_MEDIUM,
      'the editor region before a better voice of another region',
    );
    assert.equal(bestVoiceFor([ESPEAK_GB, ESPEAK_US], 'en'), ESPEAK_US);
    assert.equal(bestVoiceFor([ESPEAK_GB, ESPEAK_US], 'en-GB'), ESPEAK_GB);
    assert.equal(bestVoiceFor([ESPEAK_DE, PIPER_MEDIUM], 'de'), ESPEAK_DE, 'the language before the quality');
  });

  it('the default voice is among the ready ones; the recommendation among the not-installed neural ones of a reasonable size', () => {
    const notInstalled = (entry: RankableVoice): RankableVoice => ({
      ...entry,
      voice: { ...entry.voice, availability: 'not_installed' },
    });
    const big = notInstalled(KOKORO_V1);
    const piper = notInstalled(PIPER_MEDIUM);
    const all = [ESPEAK_US, big, piper, notInstalled(PICO_US)];
    assert.equal(bestReadyVoice(all, 'en'), ESPEAK_US);
    const sizes = new Map<RankableVoice, number | null>([
      [big, 361e6],
      [piper, 63e6],
    ]);
    assert.equal(
      recommendedVoice(all, 'en', (entry) => sizes.get(entry) ?? null),
      piper,
      'Kokoro is too large to offer unasked; Pico is not neural',
    );
    assert.equal(
      recommendedVoice(all, 'en', (entry) => sizes.get(entry) ?? null, 400e6),
      big,
    );
    assert.equal(
      recommendedVoice([ESPEAK_US, PIPER_MEDIUM], 'en', () => 1),
      undefined,
      'an installed voice is not offered',
    );
  });
});

describe('best voice in the voice library', () => {
  let dataDir: string;
  let library: VoiceLibrary;
  const entries = (): VoiceEntry[] => library.entries();
  const bytes = (entry: VoiceEntry) => voiceDownload(entry)?.bytes ?? null;

  before(async () => {
    dataDir = await tempDir();
    library = createVoiceLibrary({ dataDir });
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('a new data directory: Flite SLT for English, espeak-ng for German; Piper offered for both', () => {
    assert.equal(bestReadyVoice(entries(), 'en')?.voice.name, 'English (America) – Flite SLT');
    assert.equal(bestReadyVoice(entries(), 'de')?.voice.name, 'German');
    assert.equal(bestReadyVoice(entries(), 'zz')?.voice.name, 'English (America) – Flite SLT');
    const english = recommendedVoice(entries(), 'en', bytes);
    assert.equal(
      english?.engineVoiceId,
      'piper-en-us-ljspeech-high',
      'the high tier of the editor region within the size limit',
    );
    assert.ok(bytes(english)! < 200e6);
    assert.match(recommendedVoice(entries(), 'de', bytes)?.engineVoiceId ?? '', /^piper-de-de-/);
    assert.equal(
      recommendedVoice(entries(), 'tlh', bytes)?.engineVoiceId,
      'piper-en-us-ljspeech-high',
      'no voice of the language: English',
    );
  });

  it('an installed Piper voice becomes the best English voice and is no longer offered', async () => {
    const entry = builtinCatalog().models.find((m) => m.id === 'piper-en-us-ljspeech-high')!;
    for (const file of entry.files) {
      const target = path.join(dataDir, 'models', ...file.target.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, 'weights');
    }
    assert.equal(bestReadyVoice(entries(), 'en')?.engineVoiceId, 'piper-en-us-ljspeech-high');
    assert.equal(bestReadyVoice(entries(), 'de')?.voice.name, 'German', 'still the language first');
    assert.notEqual(recommendedVoice(entries(), 'en', bytes)?.engineVoiceId, 'piper-en-us-ljspeech-high');
  });
});

describe('preview sentences', () => {
  it("every language of the catalog's voices has its own sentence; others fall back to English", () => {
    const english = sampleSentence('en');
    const languages = new Set(
      builtinCatalog()
        .models.filter((m) => m.kind === 'tts-voice')
        .flatMap((m) => m.languages),
    );
    const missing = [...languages].filter((code) => !code.startsWith('en') && sampleSentence(code) === english);
    assert.deepEqual(missing, []);
    assert.equal(sampleSentence('pt-BR'), sampleSentence('pt-PT'));
    assert.equal(sampleSentence('tlh'), english);
  });
});
