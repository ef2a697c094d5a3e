// Lexicon writes are serialized and atomic, and a lexicon that cannot be read is reported (issue 24 #3).
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { putLexicon } from '../helpers/lexicon';
import {
  assertErrorBody,
  isTerminal,
  postJson,
  request,
  startTestServer,
  waitForJob,
  type TestServer,
} from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

describe('PUT /lexicon under concurrent writers', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.dispose());

  it('50 PUTs at once all answer 200, the file is one of them whole, and no temporary file is left', async () => {
    const documents = Array.from({ length: 50 }, (_, index) => ({
      entries: Array.from({ length: 1 }, (__, entry) => ({
        text: `word${index}x${entry}`,
        say: `say ${index} ${entry}`,
        caseSensitive: false,
      })),
    }));
    const answers = await Promise.all(documents.map((document) => putLexicon(t.base, document)));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      documents.map(() => 200),
      answers.find((answer) => answer.status !== 200)?.body.toString(),
    );
    const stored = JSON.parse(await readFile(path.join(t.dataDir, 'lexicon.json'), 'utf8'));
    assert.ok(documents.some((document) => JSON.stringify(document) === JSON.stringify(stored)));
    assert.deepEqual(
      (await readdir(t.dataDir)).filter((name) => name.includes('lexicon')),
      ['lexicon.json'],
    );
    assert.equal((await request(`${t.base}/lexicon`)).status, 200);
  });

  it('a lexicon file that is not JSON is reported by GET /lexicon and by a new TTS job, never skipped in silence', async () => {
    await writeFile(path.join(t.dataDir, 'lexicon.json'), '{"entries": [{"text": "to', 'utf8');
    const read = await request(`${t.base}/lexicon`);
    assert.match(
      assertErrorBody(read, 500, 'INTERNAL_ERROR').error.message,
      /lexicon\.json is not JSON.*PUT \/lexicon/,
    );
    const created = await postJson(`${t.base}/tts/jobs`, {
      voiceId: await englishVoiceId(t.base),
      text: 'Hello there.',
    });
    assert.match(assertErrorBody(created, 500, 'INTERNAL_ERROR').error.message, /lexicon\.json is not JSON/);
    assert.equal((await putLexicon(t.base, { entries: [] })).status, 200);
    assert.equal((await request(`${t.base}/lexicon`)).status, 200);
  });
});

describe('a TTS job with a large lexicon (issue 24 #2)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.dispose());

  it("keeps the entries it uses in its own folder, not in the store's journal, and still speaks with them", async () => {
    const entries = Array.from({ length: 60 }, (_, index) => ({ text: `Zq${index}`, say: 'a', caseSensitive: false }));
    entries.push({ text: 'Nguyen', say: 'win', caseSensitive: false });
    assert.equal((await putLexicon(t.base, { entries })).status, 200);
    const text = `${entries.map((entry) => entry.text).join(', ')}.`;
    const created = await postJson(`${t.base}/tts/jobs`, {
      voiceId: await englishVoiceId(t.base),
      text,
      sampleRate: 16000,
    });
    assert.equal(created.status, 200, created.body.toString());
    const id = created.json().id;
    const job = await waitForJob(t.base, id, isTerminal, 120_000);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.equal(job.result.lexicon.applied.length, 61);
    const journal = await readFile(path.join(t.dataDir, 'jobs.json.journal'), 'utf8').catch(() => '');
    const snapshot = await readFile(path.join(t.dataDir, 'jobs.json'), 'utf8').catch(() => '');
    assert.ok(!journal.includes('"say"') && !snapshot.includes('"say"'), 'the lexicon snapshot is in the job store');
  });
});
