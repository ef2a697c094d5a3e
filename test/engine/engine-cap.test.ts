/**
 * The engine scheduler's cap, counted on the real engine processes (/proc): queued TTS jobs, a Read Aloud
 * sentence and a timeline's waveform run together on a server whose cap is two processes, one for jobs.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import type { TtsVoiceRef } from '../../src/engine/protocol';
import { engineSynthesizer } from '../../src/read-aloud/engine-speaker';
import { childrenOf } from '../helpers/processes';
import { isTerminal, postJson, request, startTestServer, waitForJob, type TestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

const espeak: TtsVoiceRef = { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US', name: 'English (America)' };
const onLinux = process.platform === 'linux';

/** The engine processes among this process's children (the server's own ffmpeg -version is not one). */
async function engineProcesses(): Promise<number[]> {
  const children = await childrenOf(process.pid);
  const commands = await Promise.all(children.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
  return children.filter((_, i) => commands[i].includes('engine-worker'));
}

describe('the engine process cap', { skip: !onLinux && 'counts processes in /proc' }, () => {
  let t: TestServer;
  let voiceId: string;
  before(async () => {
    // Two jobs may run at once as far as the job queue is concerned: only the engine's cap holds the second back.
    t = await startTestServer({ concurrency: 2, engineConfig: engineConfigFromEnvironment(process.env, { limits: { maxProcesses: 2, maxJobProcesses: 1 } }) });
    voiceId = await englishVoiceId(t.base);
  });
  after(() => t.dispose());

  it('never runs more engine processes than the cap while two jobs, a Read Aloud sentence and a waveform run together', async () => {
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, (await engineProcesses()).length);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    try {
      const jobs = [
        (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json(),
        (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json(),
      ];
      await waitForJob(t.base, jobs[0].id, (j) => j.status === 'processing');
      const controller = new AbortController();
      const [sentence, waveform] = await Promise.all([
        engineSynthesizer(t.server.engine, espeak)('Read aloud while a job runs.', 1, controller.signal),
        t.server.engine.waveform({ kind: 'waveform', mediaPath: testModel('audio/jfk.wav'), dataDir: t.dataDir, bucketsPerSecond: 100 }, controller.signal),
      ]);
      assert.ok(sentence.durationSeconds > 1, `a sentence was spoken (${sentence.durationSeconds} s)`);
      assert.ok(waveform.buckets > 0);
      const first = (await request(`${t.base}/jobs/${jobs[0].id}`)).json();
      const second = (await request(`${t.base}/jobs/${jobs[1].id}`)).json();
      assert.equal(first.status, 'processing', 'the sentence and the waveform did not wait for the running job');
      assert.equal(t.server.engine.scheduler.queued, 1, 'the second job waits for the job process');
      assert.ok(['loading_model', 'processing'].includes(second.status), `the job queue let it go (${second.status}): it waits at the engine`);
      for (const job of jobs) await postJson(`${t.base}/jobs/${job.id}/cancel`, {});
      for (const job of jobs) assert.equal((await waitForJob(t.base, job.id, isTerminal)).status, 'cancelled');
    } finally {
      sampling = false;
      await sampler;
    }
    assert.equal(most, 2, `at most (and at some point exactly) two engine processes; saw ${most}`);
  });
});
