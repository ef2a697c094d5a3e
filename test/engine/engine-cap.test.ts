/**
 * The engine scheduler's cap, counted on the real engine processes (/proc): a TTS job and an alignment job
 * (an STT job of the newer kind), a Read Aloud sentence, a live session's look (the realtime door's engine
 * work) and a timeline's waveform run together on a server whose cap is two processes, one for jobs.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { liveRecognition } from '../../src/jobs/live-recognition';
import { after, before, describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import type { TtsVoiceRef } from '../../src/engine/protocol';
import { engineSynthesizer } from '../../src/read-aloud/engine-speaker';
import { childrenOf } from '../helpers/processes';
import { isTerminal, postJson, request, startTestServer, waitForJob, type TestServer } from '../helpers/server';
import { SYNTHETIC_WHISPER, testModel } from '../helpers/test-models';
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

  /** POST /align/jobs with the shared 2-minute recording and its script, as any HTTP client sends it. */
  async function postAlignment(): Promise<{ id: string }> {
    const form = new FormData();
    form.append('file', new Blob([await readFile(testModel('audio', 'align-dev', 'dev-a.wav'))]), 'dev-a.wav');
    form.append('script', new Blob([await readFile(testModel('audio', 'align-dev', 'dev-a.txt'))]), 'dev-a.txt');
    const response = await fetch(`${t.base}/align/jobs`, { method: 'POST', body: form });
    assert.equal(response.status, 200);
    return (await response.json()) as { id: string };
  }

  it('never runs more engine processes than the cap while two jobs, a Read Aloud sentence, a live look and a waveform run together', async () => {
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
        await postAlignment(),
      ];
      await waitForJob(t.base, jobs[0].id, (j) => j.status === 'processing');
      const controller = new AbortController();
      const live = liveRecognition(t.server.engine, t.dataDir);
      const session = await live.openSession(() => undefined);
      const [sentence, waveform, look] = await Promise.all([
        engineSynthesizer(t.server.engine, espeak)('Read aloud while a job runs.', 1, controller.signal),
        t.server.engine.waveform({ kind: 'waveform', mediaPath: testModel('audio/jfk.wav'), dataDir: t.dataDir, bucketsPerSecond: 100 }, controller.signal),
        // Where the speech is in a second of a live session's audio (no words asked: turn detection's look).
        live.look(session, () => ({ pcm: new Int16Array(16_000), look: { modelPath: testModel('whisper', SYNTHETIC_WHISPER), language: 'en', decode: false, vadThreshold: 0.5 } }), controller.signal)
          .finally(() => session.release()),
      ]);
      assert.ok(sentence.durationSeconds > 1, `a sentence was spoken (${sentence.durationSeconds} s)`);
      assert.ok(waveform.buckets > 0);
      assert.equal(look.durationSeconds, 1, 'the live look ran in an engine process');
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
