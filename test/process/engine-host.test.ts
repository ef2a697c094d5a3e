import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { EngineTask } from '../../src/engine/protocol';
import { EngineCancelledError, EngineHost } from '../../src/jobs/engine-host';
import { silentLogger } from '../../src/util/log';

const SCRIPTED_ENGINE = path.join(__dirname, '..', 'helpers', 'scripted-engine.cjs');
/** Tasks the scripted engine answers at once, or holds until cancelled. */
const quick = { kind: 'tts' } as unknown as EngineTask;
const held = { kind: 'tts', hold: true } as unknown as EngineTask;
const noProgress = (): void => undefined;

/** Lets every callback that an abort or a message queued run, without waiting for any time to pass. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('EngineHost and the abort signals of its jobs', () => {
  const host = new EngineHost({ workerPath: SCRIPTED_ENGINE, log: silentLogger });
  after(() => host.close());

  it('stops listening to a job\'s signal once the job has settled', async () => {
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
    running.then(() => (settled = true), () => (settled = true));
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
