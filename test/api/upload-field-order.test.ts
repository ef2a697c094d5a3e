// Field limits hold whatever the part order, promptly, and a refused upload leaves nothing (issue 24 #6).
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { useTestServer } from '../helpers/server';
import { linkSyntheticWhisper, testModel } from '../helpers/test-models';

/** A multipart upload with the file part first and the text fields after it (as the Vercel AI SDK sends them). */
async function fileThenFields(url: string, fields: Record<string, string>): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(testModel('audio/jfk.wav'))]), 'jfk.wav');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  // The server must answer promptly: a refusal that waits for a timeout is the defect under test.
  const res = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('multipart fields after the file part', () => {
  const t = useTestServer();
  before(() => linkSyntheticWhisper(t.dataDir));

  const leftovers = async () => {
    const jobs = await readdir(path.join(t.dataDir, 'jobs')).catch(() => [] as string[]);
    return (await Promise.all(jobs.map((id) => readdir(path.join(t.dataDir, 'jobs', id)).catch(() => [])))).flat();
  };

  for (const route of ['/audio/transcriptions', '/audio/translations']) {
    it(`POST ${route}: a prompt of 1100 characters after the file is a prompt 422 naming prompt, and leaves nothing`, async () => {
      const res = await fileThenFields(`${t.base}${route}`, { model: 'whisper-1', prompt: 'x'.repeat(1100) });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.error.param, 'prompt');
      assert.deepEqual(await leftovers(), []);
    });
  }

  it('POST /stt/jobs: a field of 5000 bytes after the file is a prompt 422 naming it, and leaves nothing', async () => {
    const res = await fileThenFields(`${t.base}/stt/jobs`, { diarizationEnabled: 'false', language: 'e'.repeat(5000) });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.error.message, /^language: /);
    assert.deepEqual(await leftovers(), []);
  });

  it('a prompt of 400 CJK characters (1200 bytes) is within the 1024-character limit, before or after the file', async () => {
    const res = await fileThenFields(`${t.base}/audio/transcriptions`, {
      model: 'whisper-1',
      language: 'en',
      prompt: '東'.repeat(400),
      response_format: 'text',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
});
