import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { voiceIdFor } from '../../src/voices/voice-id';
import { assertErrorBody, isTerminal, postJson, request, waitForJob, useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { firstJobAudio, putLexicon } from '../helpers/lexicon';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

const espeakAudio = (lexicon: unknown, text: string) => firstJobAudio((t) => englishVoiceId(t.base), lexicon, text);

describe('the pronunciation lexicon through the Local API', () => {
  const t = useTestServer();

  it('GET /lexicon answers an empty lexicon, then what PUT stored in <data-dir>/lexicon.json', async () => {
    assert.deepEqual((await request(`${t.base}/lexicon`)).json(), { entries: [] });
    const document = {
      entries: [
        { text: 'Koa', say: 'koh ah' },
        { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak', caseSensitive: true, language: 'en' },
      ],
    };
    const put = await putLexicon(t.base, document);
    assert.equal(put.status, 200);
    assert.deepEqual(put.json(), { entries: [{ ...document.entries[0], caseSensitive: false }, document.entries[1]] });
    assert.deepEqual((await request(`${t.base}/lexicon`)).json(), put.json());
    assert.deepEqual(JSON.parse(await readFile(path.join(t.dataDir, 'lexicon.json'), 'utf8')), put.json());
  });

  it('PUT /lexicon answers 422 INVALID_REQUEST naming the bad entry, and keeps the stored lexicon', async () => {
    const before = (await request(`${t.base}/lexicon`)).json();
    const ok = { text: 'Koa', say: 'koh ah' };
    const cases: [unknown, RegExp][] = [
      [
        { entries: [ok, { text: 'a', say: 'b' }, { text: 'c', say: 'd' }, { text: '', say: 'e' }] },
        /^entries\[3\]\.text: /,
      ],
      [{ entries: [ok, { text: 'GIF' }] }, /^entries\[1\]: needs say/],
      [
        { entries: [{ text: 'GIF', phonemes: 'dZIf]] <x', alphabet: 'espeak' }] },
        /^entries\[0\]\.phonemes: must not contain/,
      ],
      [{ entries: [ok, { text: 'koa', say: 'other' }] }, /^entries\[1\]\.text: "koa" is already entries\[0\]/],
      [{ entries: [], words: [] }, /^words: is not a known field/],
    ];
    for (const [document, message] of cases) {
      const res = await putLexicon(t.base, document);
      assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, message);
    }
    assert.deepEqual((await request(`${t.base}/lexicon`)).json(), before);
  });

  it('keeps the rules of every route: a browser Origin or a foreign Host is refused', async () => {
    assertErrorBody(
      await putLexicon(t.base, { entries: [] }, { Origin: 'https://evil.example' }),
      403,
      'ORIGIN_NOT_ALLOWED',
    );
    assertErrorBody(await request(`${t.base}/lexicon`, { headers: { Host: 'evil.example' } }), 403, 'HOST_NOT_ALLOWED');
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await request(`${t.base}/openapi.json`)).json();
    assert.deepEqual(Object.keys(document.paths['/lexicon']).sort(), ['get', 'put']);
    assert.equal(
      document.paths['/lexicon'].put.requestBody.content['application/json'].schema.properties.entries.type,
      'array',
    );
    assert.ok(document.components.schemas.TtsResult.properties.lexicon);
  });

  it('a queued job keeps the entries it was created with when the lexicon changes', async () => {
    const voiceId = await englishVoiceId(t.base);
    assert.equal((await putLexicon(t.base, { entries: [{ text: 'Nguyen', say: 'win' }] })).status, 200);
    const busy = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    const queued = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Nguyen is here.' })).json();
    assert.equal((await putLexicon(t.base, { entries: [] })).status, 200);
    assert.equal((await request(`${t.base}/jobs/${queued.id}`)).json().status, 'queued');
    await request(`${t.base}/jobs/${busy.id}/cancel`, { method: 'POST' });
    const job = await waitForJob(t.base, queued.id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    assert.deepEqual(job.result.lexicon, { applied: ['Nguyen'], skipped: [] });
    const later = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Nguyen is here.' })).json();
    const laterJob = await waitForJob(t.base, later.id, isTerminal, 60_000);
    assert.equal(laterJob.status, 'succeeded', laterJob.error);
    assert.equal(laterJob.result.lexicon, undefined);
  });
});

describe('the lexicon changes what espeak-ng says', () => {
  it('speaking a word with a respelling entry gives the very samples of speaking the respelling', async () => {
    const withEntry = await espeakAudio({ entries: [{ text: 'Nguyen', say: 'win' }] }, 'Mister Nguyen is here.');
    const respelled = await espeakAudio(null, 'Mister win is here.');
    const plain = await espeakAudio(null, 'Mister Nguyen is here.');
    assert.deepEqual(withEntry.job.result.lexicon, { applied: ['Nguyen'], skipped: [] });
    assert.ok(withEntry.audio.equals(respelled.audio), `${withEntry.audio.length} vs ${respelled.audio.length} bytes`);
    assert.ok(!withEntry.audio.equals(plain.audio), 'the entry changed nothing');
  });

  it("speaks an entry's espeak phonemes as written", async () => {
    const phonemes = await espeakAudio(
      { entries: [{ text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' }] },
      'A GIF file.',
    );
    const long = await espeakAudio(
      { entries: [{ text: 'GIF', phonemes: 'dZIf dZIf dZIf dZIf', alphabet: 'espeak' }] },
      'A GIF file.',
    );
    const plain = await espeakAudio(null, 'A GIF file.');
    assert.deepEqual(phonemes.job.result.lexicon, { applied: ['GIF'], skipped: [] });
    assert.ok(!phonemes.audio.equals(plain.audio), 'the phonemes changed nothing');
    // Three more syllables: the phonemes are spoken, not the letters of the mnemonics or the brackets.
    const [short, longer] = [phonemes.job.result.durationSeconds, long.job.result.durationSeconds];
    assert.ok(longer - short > 0.5, `${short} s with one jif, ${longer} s with four`);
  });
});

describe('the lexicon with a sherpa-onnx voice', () => {
  const t = useTestServer();
  const lessac = voiceIdFor('sherpa-onnx', 'piper-en-us-lessac-medium');
  before(async () => {
    const dir = path.join(t.dataDir, 'models', 'tts', 'piper-en-us-lessac-medium');
    await mkdir(dir, { recursive: true });
    // Random-weight stand-ins with the real file names: the job runs sherpa-onnx's real code path.
    await copyFile(testModel('sherpa-synthetic/vits-piper/model.onnx'), path.join(dir, 'en_US-lessac-medium.onnx'));
    await copyFile(testModel('sherpa-synthetic/vits-piper/tokens.txt'), path.join(dir, 'tokens.txt'));
    await writeFile(path.join(dir, 'en_US-lessac-medium.onnx.json'), '{}');
  });

  it('speaks respellings, and reports phoneme-only entries as skipped since it takes no phonemes', async () => {
    const entries = [
      { text: 'Nguyen', say: 'win' },
      { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' },
      { text: 'Koa', say: 'koh ah' },
    ];
    assert.equal((await putLexicon(t.base, { entries })).status, 200);
    const created = await postJson(`${t.base}/tts/jobs`, {
      voiceId: lessac,
      text: 'Nguyen likes GIF files.',
      trimSilence: false,
    });
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    assert.equal(job.backend, 'sherpa-onnx');
    assert.deepEqual(job.result.lexicon, {
      applied: ['Nguyen'],
      skipped: [{ text: 'GIF', reason: 'sherpa-onnx takes no phonemes and the entry has no say' }],
    });
  });
});
