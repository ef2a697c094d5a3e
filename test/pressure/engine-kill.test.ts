/**
 * The engine process killed (SIGKILL) in each phase of a job. A FIFO put in place of the file a phase
 * reads holds the engine (or its ffprobe) in that phase for certain, so the kill lands there every time.
 * test/api covers the kill while synthesizing and while transcribing.
 */
import assert from 'node:assert/strict';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { isTerminal, postJson, request, waitFor, waitForJob, useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { holdFifoReader, installSyntheticWhisper, isAlive, onLinux, processesUsing, replaceWithFifo } from './support';

const READABLE_CRASH = /speech engine stopped unexpectedly/;

describe('the engine process killed in each phase', { skip: !onLinux && 'needs Linux (/proc, mkfifo)' }, () => {
  const t = useTestServer();
  let voiceId: string;
  let model: string;
  before(async () => {
    voiceId = await englishVoiceId(t.base);
    model = await installSyntheticWhisper(t.dataDir);
  });

  const jobDir = (id: string): string => path.join(t.dataDir, 'jobs', id);

  /** Creates the victim while a long job holds the engine, lets `prepare` rig its files, then frees the engine. */
  async function rigged(create: () => Promise<any>, prepare: (job: any) => Promise<void>): Promise<any> {
    const blocker = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    await waitForJob(t.base, blocker.id, (j) => j.status === 'processing');
    const victim = await create();
    await prepare(victim);
    assert.equal((await request(`${t.base}/jobs/${blocker.id}/cancel`, { method: 'POST' })).json().status, 'cancelled');
    return victim;
  }

  const createStt = async (fields: Record<string, string> = {}): Promise<any> => {
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false', ...fields },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
    );
    assert.equal(res.status, 200, res.body.toString());
    return res.json();
  };

  /** Kills every engine process, then checks the job's end, that nothing of it runs on, and that the next job runs. */
  async function killAndCheck(
    victim: any,
    phase: { status: string; phase: string },
    next: () => Promise<any>,
  ): Promise<void> {
    const seen = (await request(`${t.base}/jobs/${victim.id}`)).json();
    assert.deepEqual({ status: seen.status, phase: seen.phase }, phase, 'the engine is held in the phase under test');
    const pids = t.server.engine.pids;
    assert.ok(pids.length > 0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');

    const failed = await waitForJob(t.base, victim.id, isTerminal);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, READABLE_CRASH);
    assert.doesNotMatch(failed.error, /\n\s+at /, 'no stack trace');
    assert.equal(failed.phase, phase.phase, 'the failed job shows where it stopped');
    for (const pid of pids)
      await waitFor(
        `engine ${pid} to be gone`,
        async () => isAlive(pid),
        (alive) => !alive,
        5000,
      );
    // No engine, ffmpeg or ffprobe may live on holding the job's files.
    await waitFor(
      'no process to use the job folder',
      () => processesUsing(jobDir(victim.id)),
      (found) => found.length === 0,
      5000,
    );
    await waitFor(
      'no process to use the model',
      () => processesUsing(model),
      (found) => found.length === 0,
      5000,
    );

    const done = await waitForJob(t.base, (await next()).id, isTerminal, 60_000);
    assert.equal(done.status, 'succeeded', done.error);
  }

  it('TTS, loading_model (before any speech): fails readably, the next job runs', async () => {
    let fifo: { close(): void } | undefined;
    const victim = await rigged(
      async () => (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Never spoken.' })).json(),
      (job) => replaceWithFifo(path.join(jobDir(job.id), 'input.txt')),
    );
    try {
      fifo = await holdFifoReader(path.join(jobDir(victim.id), 'input.txt'));
      await killAndCheck(victim, { status: 'loading_model', phase: 'loading_model' }, async () =>
        (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'The next job.' })).json(),
      );
    } finally {
      fifo?.close();
    }
  });

  it('STT, decoding (ffprobe reading the upload): the engine and its ffprobe end, the next job runs', async () => {
    let fifo: { close(): void } | undefined;
    const victim = await rigged(createStt, (job) => replaceWithFifo(path.join(jobDir(job.id), 'input.wav')));
    try {
      fifo = await holdFifoReader(path.join(jobDir(victim.id), 'input.wav'));
      const readers = await processesUsing(jobDir(victim.id));
      assert.ok(readers.length > 0, 'ffprobe holds the upload');
      await killAndCheck(victim, { status: 'loading_model', phase: 'decoding' }, () => createStt());
      for (const pid of readers) assert.ok(!isAlive(pid), `helper ${pid} outlived the engine`);
    } finally {
      fifo?.close();
    }
  });

  it('STT, loading_model (reading the whisper model): fails readably, the next job runs', async () => {
    let fifo: { close(): void } | undefined;
    const real = `${model}.real`;
    const victim = await rigged(createStt, async () => {
      await rename(model, real);
      await replaceWithFifo(model);
    });
    try {
      fifo = await holdFifoReader(model);
      await killAndCheck(victim, { status: 'loading_model', phase: 'loading_model' }, async () => {
        fifo?.close();
        await rm(model);
        await rename(real, model);
        return createStt();
      });
    } finally {
      fifo?.close();
    }
  });

  it('TTS, encoding: a kill at the last step either fails the job with no output left, or lands after a complete output', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT.slice(0, 3000) })).json();
    let killedAt: string | undefined;
    const onChange = (record: { id: string; phase: string | null }): void => {
      if (record.id !== job.id || record.phase !== 'encoding' || killedAt) return;
      killedAt = record.phase;
      for (const pid of t.server.engine.pids) process.kill(pid, 'SIGKILL');
    };
    t.server.jobs.on('change', onChange);
    try {
      const done = await waitForJob(t.base, job.id, isTerminal, 60_000);
      assert.equal(killedAt, 'encoding', 'the job reached encoding');
      if (done.status === 'failed') {
        assert.match(done.error, READABLE_CRASH);
        assert.equal((await request(`${t.base}/jobs/${job.id}/output`)).status, 409);
        assert.deepEqual(await processesUsing(jobDir(job.id)), []);
      } else {
        assert.equal(done.status, 'succeeded', done.error);
        const output = await request(`${t.base}/jobs/${job.id}/output`);
        assert.equal(output.body.length, done.result.bytes, 'the output is complete');
      }
    } finally {
      t.server.jobs.off('change', onChange);
    }
    const next = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'After the kill.' })).json();
    assert.equal((await waitForJob(t.base, next.id, isTerminal)).status, 'succeeded');
  });
});
