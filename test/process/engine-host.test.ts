import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { EngineTask } from '../../src/engine-api/protocol';
import { EngineCancelledError, EngineHost } from '../../src/jobs/engine-host';
import { silentLogger } from '../../src/util/log';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';

const SCRIPTED_ENGINE = path.join(__dirname, '..', 'helpers', 'scripted-engine.cjs');
/** Tasks the scripted engine answers at once, or holds until cancelled. */
const quick = { kind: 'tts' } as unknown as EngineTask;
const held = { kind: 'tts', hold: true } as unknown as EngineTask;
const noProgress = (): void => undefined;

/** Lets every callback that an abort or a message queued run, without waiting for any time to pass. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('EngineHost and the abort signals of its jobs', () => {
  const host = new EngineHost({
    workerPath: SCRIPTED_ENGINE,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  after(() => host.close());

  it("stops listening to a job's signal once the job has settled", async () => {
    const signal = new AbortController().signal;
    for (const id of ['a', 'b', 'c']) {
      await host.run(id, quick, { signal, onProgress: noProgress });
      assert.equal(getEventListeners(signal, 'abort').length, 0, `after job ${id}`);
    }
  });

  it('never lets the signal of a finished job cancel the job that runs next on the same process', async () => {
    const finished = new AbortController();
    await host.run('first', quick, { signal: finished.signal, onProgress: noProgress });
    const [pid] = host.pids;

    const next = new AbortController();
    const running = host.run('second', held, { signal: next.signal, onProgress: noProgress });
    let settled = false;
    running.then(
      () => (settled = true),
      () => (settled = true),
    );
    assert.deepEqual(host.pids, [pid], 'the second job runs on the warm process');
    finished.abort();
    await settle();
    assert.equal(settled, false, 'the second job still runs');
    assert.deepEqual(host.pids, [pid], 'its process was not ended');

    next.abort();
    await assert.rejects(running, EngineCancelledError);
    assert.equal(getEventListeners(next.signal, 'abort').length, 0);
  });
});

describe('EngineHost giving a borrowed process back to interactive speech', () => {
  /** A host with two processes, one for jobs, with a held job and a held analysis task of `analysis` holding both. */
  async function bothHeld(
    analysis: Record<string, unknown>,
  ): Promise<{ host: EngineHost; analysisPid: number; stopAll: AbortController; analysing: Promise<unknown> }> {
    const host = new EngineHost({
      workerPath: SCRIPTED_ENGINE,
      log: silentLogger,
      config: () => engineConfigFromEnvironment(),
      limits: { maxProcesses: 2, maxJobProcesses: 1 },
    });
    const stopAll = new AbortController();
    void host.run('job', held, { signal: stopAll.signal, onProgress: noProgress }).catch(() => undefined);
    while (host.pids.length < 1) await settle();
    const [jobPid] = host.pids;
    let arrived!: () => void;
    const running = new Promise<void>((resolve) => (arrived = resolve));
    const analysing = host.run('analysis', { ...analysis, hold: true } as unknown as EngineTask, {
      signal: stopAll.signal,
      onProgress: () => arrived(),
    });
    analysing.catch(() => undefined);
    await running; // the engine process has the task (a process still starting could not answer a yield in time)
    const analysisPid = host.pids.find((pid) => pid !== jobPid)!;
    return { host, analysisPid, stopAll, analysing };
  }

  const sentence = { kind: 'speak' } as unknown as EngineTask;

  it('runs the sentence in the process a yielding analysis task gave back, which stays alive', async () => {
    const { host, analysisPid, stopAll } = await bothHeld({ kind: 'waveform', yields: true });
    try {
      const { result } = await host.run('sentence', sentence, {
        signal: new AbortController().signal,
        onProgress: noProgress,
      });
      assert.equal(
        (result as unknown as { pid: number }).pid,
        analysisPid,
        'the sentence ran in the process the waveform had',
      );
      assert.deepEqual(host.yields, { kept: 1, ended: 0 });
      assert.ok(host.pids.includes(analysisPid), 'that process is still alive');
      assert.equal(host.pids.length, 2);
    } finally {
      stopAll.abort();
      await host.close();
    }
  });

  it('ends the process of an analysis task that does not answer the yield within the bound, and never exceeds the cap', async () => {
    const { host, analysisPid, stopAll } = await bothHeld({ kind: 'waveform' });
    try {
      const { result } = await host.run('sentence', sentence, {
        signal: new AbortController().signal,
        onProgress: noProgress,
      });
      assert.notEqual((result as unknown as { pid: number }).pid, analysisPid, 'the sentence ran in a fresh process');
      assert.deepEqual(host.yields, { kept: 0, ended: 1 });
      assert.ok(!host.pids.includes(analysisPid), 'the unanswering process was ended');
      assert.ok(host.pids.length <= 2, `at most two processes (${host.pids.length})`);
    } finally {
      stopAll.abort();
      await host.close();
    }
  });

  it('ends the process of an analysis task of a kind that cannot yield, without asking it', async () => {
    const { host, analysisPid, stopAll } = await bothHeld({ kind: 'voice-reference', yields: true });
    try {
      const { result } = await host.run('sentence', sentence, {
        signal: new AbortController().signal,
        onProgress: noProgress,
      });
      assert.notEqual((result as unknown as { pid: number }).pid, analysisPid);
      assert.deepEqual(
        host.yields,
        { kept: 0, ended: 1 },
        'it would have answered, but was not asked: voice-reference does not check for a yield',
      );
    } finally {
      stopAll.abort();
      await host.close();
    }
  });
});

describe('EngineHost keeping one engine process ready', () => {
  /** Short, so the test sees an idle exit; a deadline below, never a duration asserted. */
  const host = new EngineHost({
    workerPath: SCRIPTED_ENGINE,
    log: silentLogger,
    idleTimeoutMs: 200,
    config: () => engineConfigFromEnvironment(),
  });
  after(() => host.close());

  async function until(done: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!done()) {
      assert.ok(Date.now() < deadline, what);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('starts one before any task, runs the first task on it, and starts a fresh one after the last ends idle', async () => {
    assert.deepEqual(host.pids, []);
    host.keepOneWarm();
    assert.equal(host.pids.length, 1, 'a process is started at once, before any task');
    const [warm] = host.pids;
    const outcome = await host.run('first', quick, { signal: new AbortController().signal, onProgress: noProgress });
    assert.equal((outcome.result as unknown as { pid: number }).pid, warm, 'the first task ran on the ready process');
    await until(() => host.pids.length === 1 && host.pids[0] !== warm, 'no fresh process after the idle exit');
    const [fresh] = host.pids;
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(host.pids, [fresh], 'a process that never ran a task is kept, not ended idle');
  });
});
