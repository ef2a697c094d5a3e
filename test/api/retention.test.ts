import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { assertErrorBody, isTerminal, postJson, request, startTestServer, waitFor, waitForJob, type TestServer } from '../helpers/server';
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
    // Pruning follows the last job's end, which clients may see a moment before it.
    for (const id of ids.slice(0, 2)) {
      const gone = await waitFor(`job ${id} to be pruned`, () => request(`${t.base}/jobs/${id}`), (res) => res.status === 404, 5000);
      assertErrorBody(gone, 404, 'JOB_NOT_FOUND');
    }
    for (const id of ids.slice(2)) assert.equal((await request(`${t.base}/jobs/${id}/output`)).status, 200);
    const folders = await waitFor('the pruned folders to go', async () => (await readdir(`${t.dataDir}/jobs`)).sort(), (names) => names.length === 2, 5000);
    assert.deepEqual(folders, ids.slice(2).sort());
  });
});
