import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/contract/errors';
import type { Voice } from '../../src/contract/types';
import { defaultVoice } from '../../src/voices/default-voice';
import type { VoiceEntry } from '../../src/voices/library';

function entry(
  engine: VoiceEntry['engine'],
  engineVoiceId: string,
  languageCode: string,
  availability: Voice['availability'] = 'ready',
): VoiceEntry {
  const id = `${engine}:${engineVoiceId}`;
  return {
    engine,
    engineVoiceId,
    voice: { id, name: engineVoiceId, languageCode, availability },
  } as unknown as VoiceEntry;
}

const library = (entries: VoiceEntry[]) => ({
  get: (id: string) => entries.find((e) => e.voice.id === id),
  entries: () => entries,
});

const ESPEAK_US = entry('espeak-ng', 'gmw/en-US', 'en-US');
const FLITE_SLT = entry('flite', 'slt', 'en-US');
const ESPEAK_DE = entry('espeak-ng', 'gmw/de', 'de-DE');
const PIPER_INSTALLING = entry('sherpa-onnx', 'piper-en-us-lessac-medium', 'en-US', 'installing');

describe('the one default-voice rule', () => {
  it('speaks with the configured voice when it is ready', () => {
    assert.equal(defaultVoice(library([ESPEAK_US, FLITE_SLT]), { configured: ESPEAK_US.voice.id }), ESPEAK_US);
  });

  it('else the best ready voice of the language, else of English', () => {
    const voices = library([ESPEAK_US, FLITE_SLT, ESPEAK_DE, PIPER_INSTALLING]);
    assert.equal(
      defaultVoice(voices, { configured: PIPER_INSTALLING.voice.id }),
      FLITE_SLT,
      'a voice still installing is passed over',
    );
    assert.equal(defaultVoice(voices, { language: 'de' }), ESPEAK_DE);
    assert.equal(defaultVoice(voices, { language: 'ja' }), FLITE_SLT);
    assert.equal(defaultVoice(voices), FLITE_SLT, 'English when no language is given (MCP, the audiobook)');
  });

  it("for a text's own language (a book's), only a voice of it: Chinese by a Mandarin voice, none of another language", () => {
    const mandarin = entry('espeak-ng', 'sit/cmn', 'cmn');
    const voices = library([ESPEAK_US, FLITE_SLT, ESPEAK_DE, mandarin]);
    assert.equal(defaultVoice(voices, { language: 'zh-CN', textLanguage: true }), mandarin);
    assert.equal(defaultVoice(voices, { language: 'de', textLanguage: true }), ESPEAK_DE);
    assert.throws(
      () => defaultVoice(voices, { language: 'km', textLanguage: true }),
      (error: unknown) =>
        error instanceof ApiError && error.code === 'VOICE_NOT_READY' && /speaks Khmer \(km\)/.test(error.message),
    );
  });

  it("never picks a voice of the user's own (cloned or designed) unless it is the configured one", () => {
    const cloned = entry('sherpa-onnx', 'custom/my-voice', 'en-US');
    const designed = entry('sherpa-onnx', 'custom/blend#0', 'en-US');
    (cloned.voice as { creationMode?: string }).creationMode = 'cloned';
    (designed.voice as { creationMode?: string }).creationMode = 'designed';
    const voices = library([ESPEAK_US, FLITE_SLT, cloned, designed]);
    assert.equal(defaultVoice(voices), FLITE_SLT);
    assert.equal(defaultVoice(voices, { language: 'en', textLanguage: true }), FLITE_SLT);
    assert.equal(defaultVoice(voices, { configured: cloned.voice.id }), cloned);
  });

  it('is VOICE_NOT_READY when no voice is ready', () => {
    assert.throws(
      () => defaultVoice(library([PIPER_INSTALLING])),
      (error: unknown) => error instanceof ApiError && error.code === 'VOICE_NOT_READY',
    );
  });
});
