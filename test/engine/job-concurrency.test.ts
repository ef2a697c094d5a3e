/**
 * The job lane of the engine scheduler is the one cap on jobs running at once: with
 * `SPEECH_STUDIO_ENGINE_PROCESSES=3/2` two TTS jobs run together on a real server (loopback port, real engine
 * processes), and with the variable unset the cap is what docs/configuration.md says for this machine's core
 * count (one process per core between 2 and 4, all but one of them for jobs). Nothing here is timed: the test
 * waits on the jobs' states, so it holds on a loaded machine.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import type { JobRecord } from '../../src/jobs/types';
import {
  isTerminal,
  postJson,
  request,
  startTestServer,
  waitFor,
  waitForJob,
  type TestServer,
} from '../helpers/server';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

const RUNNING = ['loading_model', 'processing'];
/** Generous: the engine processes start and speak on cores another process may be spinning on. */
const DEADLINE_MS = 180_000;

/** The documented default (docs/configuration.md, the engine scheduler): one process per core between 2 and 4, all but one for jobs. */
const documentedJobLane = (cores: number): number => Math.max(2, Math.min(4, cores)) - 1;

/** Counts, from the job service's own change events, the most jobs in a running state at once. */
function watchRunning(t: TestServer): { most(): number; stop(): void } {
  const status = new Map<string, string>();
  let most = 0;
  const onChange = (job: JobRecord): void => {
    status.set(job.id, job.status);
    most = Math.max(most, [...status.values()].filter((s) => RUNNING.includes(s)).length);
  };
  const jobs = t.server.appDeps.jobs;
  jobs.on('change', onChange);
  return { most: () => most, stop: () => void jobs.off('change', onChange) };
}

/**
 * Posts `count` long TTS jobs, waits (polling the Local API) until `together` of them run at once, checks the
 * rest wait `queued`, then cancels them all; answers the records, ended, and the most seen running at once.
 */
async function runTogether(t: TestServer, count: number, together: number): Promise<{ ended: any[]; most: number }> {
  const voiceId = await englishVoiceId(t.base);
  const watch = watchRunning(t);
  const ids: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const response = await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT });
      assert.equal(response.status, 200, response.body.toString());
      ids.push(response.json().id);
    }
    const read = async (): Promise<any[]> =>
      Promise.all(ids.map(async (id) => (await request(`${t.base}/jobs/${id}`)).json()));
    // The first `together` jobs run at once, and one of them is past loading: every job has been in the scheduler since it was created.
    const seen = await waitFor(
      `${together} jobs running at once`,
      read,
      (jobs) =>
        jobs.slice(0, together).every((j) => RUNNING.includes(j.status)) && jobs.some((j) => j.status === 'processing'),
      DEADLINE_MS,
    );
    for (const job of seen.slice(together)) assert.equal(job.status, 'queued', `job ${job.id} waits for the job lane`);
    // The waiting ones first: a running job cancelled first would free its slot for one of them.
    for (const id of [...ids].reverse()) await postJson(`${t.base}/jobs/${id}/cancel`, {});
    const ended = await Promise.all(ids.map((id) => waitForJob(t.base, id, isTerminal, DEADLINE_MS)));
    return { ended, most: watch.most() };
  } finally {
    watch.stop();
  }
}

describe('jobs running at once', () => {
  it('runs two jobs at the same time with SPEECH_STUDIO_ENGINE_PROCESSES=3/2, and never a third', async () => {
    const t = await startTestServer({
      engineConfig: engineConfigFromEnvironment({ ...process.env, SPEECH_STUDIO_ENGINE_PROCESSES: '3/2' }),
    });
    try {
      assert.equal(t.server.engine.scheduler.limits.maxJobProcesses, 2);
      const { ended, most } = await runTogether(t, 3, 2);
      assert.equal(most, 2, `two jobs ran at once, never three (most at once: ${most})`);
      for (const job of ended) assert.equal(job.status, 'cancelled');
      // As a client sees it afterwards: the first two jobs' running times overlap.
      const [first, second, third] = ended;
      assert.ok(first.startedAt !== null && second.startedAt !== null, 'both started');
      assert.ok(
        Math.max(first.startedAt, second.startedAt) <= Math.min(first.finishedAt, second.finishedAt),
        'their running times overlap',
      );
      assert.equal(third.startedAt, null, 'the third never started: it was cancelled while it waited');
    } finally {
      await t.dispose();
    }
  });

  it('runs as many jobs at once as the documented default for this core count, without the variable', async () => {
    const environment = { ...process.env };
    delete environment.SPEECH_STUDIO_ENGINE_PROCESSES;
    const t = await startTestServer({ engineConfig: engineConfigFromEnvironment(environment) });
    try {
      const lane = documentedJobLane(os.availableParallelism());
      assert.equal(t.server.engine.scheduler.limits.maxJobProcesses, lane, 'the documented default');
      const { ended, most } = await runTogether(t, lane + 1, lane);
      assert.equal(most, lane, `${lane} at once, never more (most at once: ${most})`);
      assert.equal(ended[lane].startedAt, null, 'the job past the lane never started');
    } finally {
      await t.dispose();
    }
  });
});
