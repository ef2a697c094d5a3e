/**
 * The server keeps one engine process ready from its start (warmEngine, the default outside the tests): it
 * runs before any request, and the first job runs in it, even when that job comes while it still warms up.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTerminal, postJson, useTestServer, waitForJob } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

describe('an engine process kept ready', () => {
  const t = useTestServer({ warmEngine: true });

  it('is started with the server and runs the first job, which may come while it warms up', async () => {
    const pids = t.server.engine.pids;
    assert.equal(pids.length, 1, 'an engine process runs before any request');
    const voiceId = await englishVoiceId(t.base);
    const created = await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'The first job after the start.' });
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    assert.deepEqual(t.server.engine.pids, pids, 'the job ran in the process started with the server');
  });
});
