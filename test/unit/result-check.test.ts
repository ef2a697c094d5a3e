import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkJobResult, MAX_RESULT_BYTES } from '../../src/contract/result-check';
import type { SttResult, TtsResult } from '../../src/contract/types';

const tts: TtsResult = {
  mediaType: 'audio/mpeg',
  outputFormat: 'mp3',
  sampleRate: 24000,
  audioChannels: 'mono',
  durationSeconds: 2.5,
  bytes: 40_000,
  characters: 30,
  chunks: 2,
  bitrateKbps: 128,
  voice: { name: 'Amy', engine: 'sherpa-onnx', languageCode: 'en-US' },
  language: 'en-US',
  speed: { value: 1, method: 'engine-rate' },
  duration: null,
  loudness: { targetLufs: -16, measuredLufs: null, gainDb: 0, peakCeilingDbfs: -1 },
  ignoredOptions: { pitch: 'the voice cannot change its pitch' },
};

const stt: SttResult = {
  language: 'en',
  durationSeconds: 3,
  segmentCount: 2,
  speakerCount: null,
  transcriptFormats: ['txt', 'srt', 'vtt', 'json-simple', 'json-full'],
  model: 'ggml-base.bin',
  whisper: { prompt: false, task: 'transcribe', temperature: 0 },
};

describe('checkJobResult: a result from outside as the contract describes it', () => {
  it('keeps a whole TTS and STT result as it is, nested objects and maps included', () => {
    assert.deepEqual(checkJobResult('tts', tts), { ok: true, value: tts });
    assert.deepEqual(checkJobResult('stt', stt), { ok: true, value: stt });
  });

  it('drops members the contract does not name, at any depth, without touching the input', () => {
    const foreign = { ...tts, owner: 'me', voice: { ...tts.voice, path: '/secret' } };
    const checked = checkJobResult('tts', foreign);
    assert.deepEqual(checked, { ok: true, value: tts });
    assert.equal(foreign.owner, 'me');
  });

  it("refuses another kind's result, a missing member, a wrong type, and names it", () => {
    const other = checkJobResult('tts', stt);
    assert.equal(other.ok, false);
    const { bytes: _bytes, ...noBytes } = tts;
    assert.deepEqual(checkJobResult('tts', noBytes), { ok: false, message: checkMessage(noBytes) });
    assert.match(checkMessage(noBytes), /bytes/);
    assert.match(checkMessage({ ...tts, sampleRate: 'fast' }), /sampleRate/);
    assert.equal(checkJobResult('stt', null).ok, false);
  });

  it('refuses a result larger than the bound, whatever its members', () => {
    const big = { ...stt, language: 'x'.repeat(MAX_RESULT_BYTES) };
    assert.deepEqual(checkJobResult('stt', big), {
      ok: false,
      message: `the result is larger than ${MAX_RESULT_BYTES} bytes`,
    });
    assert.equal(checkJobResult('stt', { ...stt, n: 1n }).ok, false, 'not JSON data');
  });
});

function checkMessage(result: unknown): string {
  const checked = checkJobResult('tts', result);
  assert.equal(checked.ok, false);
  return checked.ok ? '' : checked.message;
}
