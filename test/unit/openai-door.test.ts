import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIRST_LIVE_CHUNK_CHARS, LIVE_GROUP_CHARS, liveChunks, liveGroups } from '../../src/engine/tts/live-text';
import { inOpenAiNames, openAiErrorType, paramOf, toOpenAiError } from '../../src/openai/errors';
import {
  OPENAI_VOICE_ENV,
  openAiVoicesFromEnvironment as voiceOverridesFromEnv,
} from '../../src/config/server-environment';
import { resolveVoice } from '../../src/voices/voice-map';
import { createVoiceLibrary, type VoiceLibrary } from '../../src/voices/library';

describe('live synthesis chunks', () => {
  it('starts with a short chunk cut at a sentence end, then the usual chunks, losing no text', () => {
    const text = `${'A first sentence that is short. '}${'Then many more words follow in sentences of their own. '.repeat(30)}`;
    const chunks = liveChunks(text);
    assert.ok(chunks[0].length <= FIRST_LIVE_CHUNK_CHARS && chunks[0].endsWith('.'), chunks[0]);
    assert.ok(chunks.slice(1).every((chunk) => chunk.length <= 400));
    assert.equal(chunks.join(' ').replace(/\s+/g, ' '), text.trim().replace(/\s+/g, ' '));
    assert.deepEqual(liveChunks('   '), []);
  });

  it('speaks the first chunk alone, then groups of at most LIVE_GROUP_CHARS, in order', () => {
    const chunks = liveChunks(
      'Short first. '.concat('A middling sentence of some length for the grouping. '.repeat(60)),
    );
    const groups = liveGroups(chunks);
    assert.deepEqual(groups[0], [chunks[0]]);
    assert.deepEqual(groups.flat(), chunks);
    for (const group of groups.slice(1)) assert.ok(group.length === 1 || group.join('').length <= LIVE_GROUP_CHARS);
    assert.ok(groups.length < chunks.length);
  });
});

describe('OpenAI error shape', () => {
  it("names the parameter in OpenAI's words and types errors by status", () => {
    assert.equal(paramOf('text: must be 1 to 100000 characters'), 'input');
    assert.equal(paramOf('voiceId: no voice'), 'voice');
    assert.equal(paramOf('response_format: must be one of …'), 'response_format');
    assert.equal(paramOf('body: must be JSON'), null);
    assert.equal(paramOf('The queue is full'), null);
    assert.deepEqual([401, 403, 404, 409, 422, 429, 500].map(openAiErrorType), [
      'authentication_error',
      'permission_error',
      'not_found_error',
      'invalid_request_error',
      'invalid_request_error',
      'rate_limit_error',
      'server_error',
    ]);
  });

  it("says the field in OpenAI's words in the message too, in the one mapping (the client sent `input`, not `text`)", () => {
    assert.equal(inOpenAiNames('text: must be 1 to 100000 characters'), 'input: must be 1 to 100000 characters');
    assert.equal(inOpenAiNames('voiceId: no voice'), 'voice: no voice');
    assert.equal(inOpenAiNames('language: unknown'), 'language: unknown');
    assert.equal(inOpenAiNames('The queue is full: text: 3'), 'The queue is full: text: 3');
    const shaped = toOpenAiError(422, { error: { code: 'INVALID_REQUEST', message: 'text: is empty' } });
    assert.deepEqual(shaped, {
      error: { message: 'input: is empty', type: 'invalid_request_error', param: 'input', code: 'INVALID_REQUEST' },
    });
  });
});

describe('OpenAI voice names', () => {
  let dataDir: string;
  let voices: VoiceLibrary;
  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'voice-map-'));
    voices = createVoiceLibrary({ dataDir });
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('maps every OpenAI voice to a ready voice, case-insensitively', () => {
    for (const name of [
      'alloy',
      'ash',
      'ballad',
      'coral',
      'echo',
      'fable',
      'nova',
      'onyx',
      'sage',
      'shimmer',
      'verse',
      'Marin',
      'CEDAR',
    ]) {
      const match = resolveVoice(voices, name, {});
      assert.ok(match.found && match.entry.voice.availability === 'ready', name);
    }
    assert.equal(resolveVoice(voices, 'nobody', {}).found, false);
  });

  it('lets an override win, and ignores an override naming no voice', () => {
    const match = resolveVoice(voices, 'alloy', { alloy: 'English (Scotland) – Flite AWB' });
    assert.ok(match.found && match.entry.voice.name === 'English (Scotland) – Flite AWB');
    const fallback = resolveVoice(voices, 'alloy', { alloy: 'no such voice' });
    assert.ok(fallback.found && fallback.entry.voice.name === 'English (America) – Flite SLT');
  });

  it('reads overrides from the environment and refuses what is not a JSON object', () => {
    assert.deepEqual(voiceOverridesFromEnv({ [OPENAI_VOICE_ENV]: '{"nova":"French (France)"}' }), {
      nova: 'French (France)',
    });
    assert.deepEqual(voiceOverridesFromEnv({}), {});
    assert.throws(() => voiceOverridesFromEnv({ [OPENAI_VOICE_ENV]: '[1]' }), TypeError);
  });
});
