import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { assertErrorBody, isTerminal, postJson, request, startTestServer, waitForJob, type TestServer } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

describe('retention of finished jobs', () => {
  let t: TestServer;
  after(() => t?.dispose());

  it('prunes the oldest finished jobs and their folders beyond the limit, never the newest', async () => {
    t = await startTestServer({ maxFinishedJobs: 2 });
    const voiceId = await englishVoiceId(t.base);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: `Job number ${i}.` })).json();
      await waitForJob(t.base, job.id, isTerminal);
      ids.push(job.id);
    }
    assertErrorBody(await request(`${t.base}/jobs/${ids[0]}`), 404, 'JOB_NOT_FOUND');
    assertErrorBody(await request(`${t.base}/jobs/${ids[1]}`), 404, 'JOB_NOT_FOUND');
    for (const id of ids.slice(2)) assert.equal((await request(`${t.base}/jobs/${id}/output`)).status, 200);
    assert.deepEqual((await readdir(`${t.dataDir}/jobs`)).sort(), ids.slice(2).sort());
  });
});
