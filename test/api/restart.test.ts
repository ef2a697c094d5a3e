import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { isTerminal, postJson, request, startTestServer, tempDir, waitForJob } from '../helpers/server';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

describe('a restart on the same data directory', () => {
  let dataDir: string;
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps finished jobs and outputs, interrupts the running job and runs the queued one', async () => {
    dataDir = await tempDir();
    const first = await startTestServer({ dataDir });
    const voiceId = await englishVoiceId(first.base);
    const create = async (text: string) => (await postJson(`${first.base}/tts/jobs`, { voiceId, text })).json();

    const succeeded = await create('Kept across restarts.');
    await waitForJob(first.base, succeeded.id, isTerminal);
    const cancelled = await create(LONG_TEXT);
    await waitForJob(first.base, cancelled.id, (j) => j.status === 'processing');
    await request(`${first.base}/jobs/${cancelled.id}/cancel`, { method: 'POST' });
    const failed = await create(LONG_TEXT);
    await waitForJob(first.base, failed.id, (j) => j.status === 'processing');
    process.kill(first.server.engine.pids[0], 'SIGKILL');
    await waitForJob(first.base, failed.id, isTerminal);
    const running = await create(LONG_TEXT);
    const queued = await create('Waiting for the next start.');
    await waitForJob(first.base, running.id, (j) => j.status === 'processing');
    const before = Object.fromEntries(
      await Promise.all(
        [succeeded, cancelled, failed].map(async (j) => [j.id, (await request(`${first.base}/jobs/${j.id}`)).json()]),
      ),
    );
    await first.stop();

    const second = await startTestServer({ dataDir });
    try {
      for (const job of [succeeded, cancelled, failed]) {
        assert.deepEqual(
          (await request(`${second.base}/jobs/${job.id}`)).json(),
          before[job.id],
          'finished jobs never change',
        );
      }
      assert.equal(before[succeeded.id].status, 'succeeded');
      assert.equal(before[cancelled.id].status, 'cancelled');
      assert.equal(before[failed.id].status, 'failed');
      const interrupted = (await request(`${second.base}/jobs/${running.id}`)).json();
      assert.equal(interrupted.status, 'interrupted');
      assert.ok(interrupted.finishedAt >= interrupted.startedAt);
      assert.equal((await waitForJob(second.base, queued.id, isTerminal)).status, 'succeeded');
      const output = await request(`${second.base}/jobs/${succeeded.id}/output`);
      assert.equal(output.status, 200);
      assert.equal(output.body.subarray(0, 4).toString(), 'RIFF');
    } finally {
      await second.stop();
    }
  });
});
