// GET /jobs/{id}/output serves single byte ranges, so players can seek and downloads resume (issue 24 #18).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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

describe('GET /jobs/{id}/output with Range', () => {
  let t: TestServer;
  let url: string;
  let whole: Buffer;
  before(async () => {
    t = await startTestServer();
    const created = await postJson(`${t.base}/tts/jobs`, {
      voiceId: await englishVoiceId(t.base),
      text: 'Seek me, please.',
      sampleRate: 16000,
    });
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded');
    url = `${t.base}/jobs/${job.id}/output`;
    const full = await request(url);
    assert.equal(full.status, 200);
    assert.equal(full.headers['accept-ranges'], 'bytes');
    whole = full.body;
    assert.ok(whole.length > 1000);
  });
  after(() => t.dispose());

  it('answers 206 with Content-Range for a first-last, an open-ended and a suffix range', async () => {
    const size = whole.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-10', size - 10, size - 1],
      [`bytes=50-${size + 1000}`, 50, size - 1],
    ];
    for (const [range, first, last] of cases) {
      const res = await request(url, { headers: { Range: range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${first}-${last}/${size}`, range);
      assert.equal(Number(res.headers['content-length']), last - first + 1, range);
      assert.ok(res.body.equals(whole.subarray(first, last + 1)), range);
    }
  });

  it('answers 416 with Content-Range bytes */size for a range past the end', async () => {
    for (const range of [`bytes=${whole.length}-`, `bytes=${whole.length + 5}-${whole.length + 9}`, 'bytes=-0']) {
      const res = await request(url, { headers: { Range: range } });
      assertErrorBody(res, 416, 'RANGE_NOT_SATISFIABLE');
      assert.equal(res.headers['content-range'], `bytes */${whole.length}`, range);
    }
  });

  it('serves the whole file for a Range it does not serve (several ranges, another unit, nonsense)', async () => {
    for (const range of ['bytes=0-1,5-9', 'items=0-1', 'bytes=abc', 'bytes=9-2']) {
      const res = await request(url, { headers: { Range: range } });
      assert.equal(res.status, 200, range);
      assert.ok(res.body.equals(whole), range);
    }
  });
});
