/**
 * The engine scheduler's cap, counted on the real engine processes (/proc): a TTS job and an alignment job
 * (an STT job of the newer kind), a Read Aloud sentence, a live session's look (the realtime door's engine
 * work) and a timeline's waveform run together on a server whose cap is two processes, one for jobs.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readWaveformFile } from '../../src/audio/waveform-file';
import { liveRecognition } from '../../src/jobs/live-recognition';
import { after, before, describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import type { TtsVoiceRef } from '../../src/engine-api/protocol';
import { engineSynthesizer } from '../../src/read-aloud/engine-speaker';
import { childrenOf, isAlive } from '../helpers/processes';
import { useWorkDirs } from '../helpers/temp';
import {
  isTerminal,
  postJson,
  request,
  startTestServer,
  waitFor,
  waitForJob,
  type TestServer,
} from '../helpers/server';
import { SYNTHETIC_WHISPER, testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

const espeak: TtsVoiceRef = {
  engine: 'espeak-ng',
  engineVoiceId: 'gmw/en-US',
  languageCode: 'en-US',
  name: 'English (America)',
};
const onLinux = process.platform === 'linux';

const workDir = useWorkDirs('engine-cap-');

/** The engine processes among this process's children (the server's own ffmpeg -version is not one). */
async function engineProcesses(): Promise<number[]> {
  const children = await childrenOf(process.pid);
  const commands = await Promise.all(children.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
  return children.filter((_, i) => commands[i].includes('engine-worker'));
}

/** Counts the engine processes every 10 ms until stopped; `stop` gives the most seen at once. */
function countEngineProcesses(): { stop(): Promise<number> } {
  let most = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      most = Math.max(most, (await engineProcesses()).length);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    stop: async () => {
      sampling = false;
      await sampler;
      return most;
    },
  };
}

describe('the engine process cap', { skip: !onLinux && 'counts processes in /proc' }, () => {
  let t: TestServer;
  let voiceId: string;
  before(async () => {
    // The job lane of the engine's cap (one) is the only thing that holds the second job back.
    t = await startTestServer({
      engineConfig: engineConfigFromEnvironment(process.env, { limits: { maxProcesses: 2, maxJobProcesses: 1 } }),
    });
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
    const counting = countEngineProcesses();
    let most: number;
    try {
      const jobs = [(await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json(), await postAlignment()];
      await waitForJob(t.base, jobs[0].id, (j) => j.status === 'processing');
      const controller = new AbortController();
      const live = liveRecognition(t.server.engine, t.dataDir);
      const session = await live.openSession(() => undefined);
      const [sentence, waveform, look] = await Promise.all([
        engineSynthesizer(t.server.engine, espeak)('Read aloud while a job runs.', 1, controller.signal),
        t.server.engine.waveform(
          { kind: 'waveform', mediaPath: testModel('audio/jfk.wav'), dataDir: t.dataDir, bucketsPerSecond: 100 },
          controller.signal,
        ),
        // Where the speech is in a second of a live session's audio (no words asked: turn detection's look).
        live
          .look(
            session,
            () => ({
              pcm: new Int16Array(16_000),
              look: {
                modelPath: testModel('whisper', SYNTHETIC_WHISPER),
                language: 'en',
                decode: false,
                vadThreshold: 0.5,
              },
            }),
            controller.signal,
          )
          .finally(() => session.release()),
      ]);
      assert.ok(sentence.durationSeconds > 1, `a sentence was spoken (${sentence.durationSeconds} s)`);
      assert.ok(waveform.buckets > 0);
      assert.equal(look.durationSeconds, 1, 'the live look ran in an engine process');
      const first = (await request(`${t.base}/jobs/${jobs[0].id}`)).json();
      const second = (await request(`${t.base}/jobs/${jobs[1].id}`)).json();
      assert.equal(first.status, 'processing', 'the sentence and the waveform did not wait for the running job');
      assert.equal(t.server.engine.scheduler.queued, 1, 'the second job waits for the job process');
      assert.equal(
        second.status,
        'queued',
        "it waits in the scheduler's job lane, and says so: queued until the scheduler starts it",
      );
      for (const job of jobs) await postJson(`${t.base}/jobs/${job.id}/cancel`, {});
      for (const job of jobs) assert.equal((await waitForJob(t.base, job.id, isTerminal)).status, 'cancelled');
    } finally {
      most = await counting.stop();
    }
    assert.equal(most, 2, `at most (and at some point exactly) two engine processes; saw ${most}`);
  });
  /** The engine process whose ffmpeg decodes `mediaPath` (the waveform's, past its ffprobe), once there is one. */
  async function processDecoding(mediaPath: string): Promise<number | undefined> {
    for (const engine of t.server.engine.pids) {
      for (const child of await childrenOf(engine)) {
        const argv = (await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '')).split('\0');
        if (path.basename(argv[0]) === 'ffmpeg' && argv.includes(mediaPath)) return engine;
      }
    }
    return undefined;
  }

  it('gives Read Aloud the process a waveform borrowed without ending it: the waveform yields, runs again and still draws the right peaks', async () => {
    const scratch = await workDir();
    // Forty minutes of speech: a waveform that is still decoding when the test has seen its ffmpeg (about a
    // second, quiet) and the sentence comes.
    const media = path.join(scratch, 'forty-minutes.wav');
    await promisify(execFile)('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-stream_loop',
      '19',
      '-i',
      testModel('audio', 'align-dev', 'dev-a.wav'),
      '-c',
      'copy',
      media,
    ]);
    const engine = t.server.engine;
    const before = { ...engine.yields, reclaimed: engine.scheduler.reclaimed };
    const counting = countEngineProcesses();
    let most: number;
    const controller = new AbortController();
    try {
      const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
      await waitForJob(t.base, job.id, (j) => j.status === 'processing');
      const waveform = engine.waveform(
        { kind: 'waveform', mediaPath: media, dataDir: path.join(scratch, 'yielded'), bucketsPerSecond: 100 },
        controller.signal,
      );
      waveform.catch(() => undefined); // awaited below; a failed assertion before that must not hide behind its rejection
      const waveformPid = await waitFor(
        'the waveform decoding beside the job',
        () => processDecoding(media),
        (pid) => pid !== undefined,
        60_000,
      );
      const pidsBefore = [...engine.pids].sort();
      assert.equal(pidsBefore.length, 2, 'the job and the waveform hold both processes');

      const sentence = await engineSynthesizer(engine, espeak)(
        'Read aloud while a waveform is drawn.',
        1,
        controller.signal,
      );
      assert.ok(sentence.durationSeconds > 1, `a sentence was spoken (${sentence.durationSeconds} s)`);
      assert.equal(
        engine.scheduler.reclaimed,
        before.reclaimed + 1,
        'the sentence took a process back from the waveform',
      );
      assert.deepEqual(
        engine.yields,
        { kept: before.kept + 1, ended: before.ended },
        'the waveform stopped and kept its process',
      );
      assert.ok(isAlive(waveformPid!), 'the process the waveform borrowed is still alive');
      // The job kept its process all along, and no process was started or ended: the sentence ran in the one the waveform gave back.
      assert.deepEqual([...engine.pids].sort(), pidsBefore, 'the same two engine processes');
      assert.equal((await request(`${t.base}/jobs/${job.id}`)).json().status, 'processing', 'the job kept its process');
      await postJson(`${t.base}/jobs/${job.id}/cancel`, {});
      assert.equal((await waitForJob(t.base, job.id, isTerminal)).status, 'cancelled');

      const drawn = await waveform;
      assert.equal(drawn.cached, false);
      assert.ok(Math.abs(drawn.durationSeconds - 2400) < 60, `forty minutes drawn (${drawn.durationSeconds} s)`);
      // The same peaks as a waveform that was never interrupted.
      const reference = await engine.waveform(
        { kind: 'waveform', mediaPath: media, dataDir: path.join(scratch, 'uninterrupted'), bucketsPerSecond: 100 },
        controller.signal,
      );
      const [yielded, uninterrupted] = await Promise.all([
        readWaveformFile(drawn.peaksPath),
        readWaveformFile(reference.peaksPath),
      ]);
      assert.ok(yielded && uninterrupted);
      assert.equal(yielded.pairs.length, uninterrupted.pairs.length);
      assert.ok(
        Buffer.from(yielded.pairs.buffer, yielded.pairs.byteOffset, yielded.pairs.byteLength).equals(
          Buffer.from(uninterrupted.pairs.buffer, uninterrupted.pairs.byteOffset, uninterrupted.pairs.byteLength),
        ),
        'the same peaks',
      );
    } finally {
      controller.abort();
      most = await counting.stop();
    }
    assert.ok(most <= 2, `never more than two engine processes; saw ${most}`);
  });
});
