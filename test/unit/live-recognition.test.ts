/**
 * The live session rules in the core (src/jobs/live-recognition.ts), with an engine whose queue is the real
 * engine scheduler and whose processes answer at once: every look waits in the scheduler's interactive lane
 * (a committed utterance's decode ranks before looks; see engine-scheduler.test.ts), sessions take slots in
 * call order up to the cap, an untouched session is reported idle, and release frees the slot and the
 * session's files.
 */
import assert from 'node:assert/strict';
import { readdir, rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import type { LiveWindowResult, LiveWindowTask } from '../../src/engine-api/protocol';
import { EngineScheduler, type TaskPlace } from '../../src/jobs/engine-scheduler';
import { liveRecognition, LiveSessionLimitError, type LiveEngine } from '../../src/jobs/live-recognition';
import { taskPlace } from '../../src/jobs/task-places';
import { waitFor } from '../helpers/server';
import { tempDir } from '../helpers/temp';

/**
 * An engine host without processes: tasks wait in a real EngineScheduler (two processes, one for jobs) and
 * `answer` plays the engine process. It records each look's place in the scheduler.
 */
function schedulingEngine(
  answer: (task: LiveWindowTask) => Promise<LiveWindowResult> = async () => ({
    durationSeconds: 0.1,
    speech: [],
    text: '',
    words: [],
    language: 'en',
  }),
): { engine: LiveEngine; places: TaskPlace[] } {
  const scheduler = new EngineScheduler({ maxProcesses: 2, maxJobProcesses: 1 });
  const places: TaskPlace[] = [];
  const engine = {
    runWhenReady: (
      _id: string,
      placing: Parameters<typeof taskPlace>[0],
      make: () => Promise<LiveWindowTask>,
      options: { signal: AbortSignal },
    ) => {
      places.push(taskPlace(placing));
      return scheduler.schedule(taskPlace(placing), options.signal, () => {
        const result = Promise.resolve()
          .then(make)
          .then(answer)
          .then((found) => ({ backend: 'whisper.cpp', result: found }));
        return {
          result,
          freed: result.then(
            () => undefined,
            () => undefined,
          ),
        };
      });
    },
    waitingOf: (kind: string) => scheduler.queuedOf(kind),
  } as unknown as LiveEngine;
  return { engine, places };
}

describe('liveRecognition', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("puts every look in the interactive lane, a committed utterance's decode ranked before looks at uncommitted audio", async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const { engine, places } = schedulingEngine();
    const recognition = liveRecognition(engine, dataDir);
    const files = await recognition.openSession(() => undefined);
    const look = { modelPath: '/m.bin', language: 'en', decode: true, vadThreshold: 0.5 };
    await recognition.look(files, () => ({ pcm: new Int16Array(1600), look }), new AbortController().signal, 'final');
    await recognition.look(
      files,
      () => ({ pcm: new Int16Array(1600), look: { ...look, preview: true } }),
      new AbortController().signal,
    );
    assert.deepEqual(
      places.map(({ lane, rank }) => [lane, rank]),
      [
        ['interactive', 0],
        ['interactive', 1],
      ],
    );
    await files.release();
  });

  it("runs a committed utterance's decode before looks that waited longer, and plans each look when its turn comes, telling it how many wait", async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const order: string[] = [];
    let release: () => void = () => undefined;
    let runs = 0;
    const { engine } = schedulingEngine(async (task) => {
      runs += 1;
      if (runs === 2)
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      return { durationSeconds: 0.1, speech: [], text: task.decode ? 'x' : '', words: [], language: 'en' };
    });
    const recognition = liveRecognition(engine, dataDir);
    const files = await recognition.openSession(() => undefined);
    const signal = new AbortController().signal;
    const plan =
      (name: string, decode: boolean) =>
      ({ waiting }: { waiting: number }) => {
        order.push(`${name}:${waiting}`);
        return { pcm: new Int16Array(160), look: { modelPath: '/m.bin', language: 'en', decode, vadThreshold: 0.5 } };
      };
    await recognition.look(files, plan('look-a', false), signal);
    const blocked = recognition.look(files, plan('look-b', false), signal);
    const lookC = recognition.look(files, plan('look-c', false), signal);
    const final = recognition.look(files, plan('final', true), signal, 'final');
    // look-b holds the interactive lane; the final waits ahead of look-c although it asked later.
    await waitFor(
      'look-b to reach the engine',
      async () => runs,
      (count) => count === 2,
      10_000,
    );
    assert.deepEqual(order, ['look-a:0', 'look-b:2']);
    release();
    await Promise.all([blocked, lookC, final]);
    assert.deepEqual(order, ['look-a:0', 'look-b:2', 'final:1', 'look-c:0']);
    await files.release();
  });

  it('gives out slots in call order up to the cap, refuses the next with LiveSessionLimitError, and frees a slot on release', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const recognition = liveRecognition(schedulingEngine().engine, dataDir, { maxSessions: 2 });
    const opening = [1, 2, 3].map(() => recognition.openSession(() => undefined));
    const refused = assert.rejects(
      opening[2],
      (error: unknown) =>
        error instanceof LiveSessionLimitError && error.maxSessions === 2 && error.code === 'session_limit_reached',
    );
    const [first, second] = await Promise.all(opening.slice(0, 2));
    await refused;
    assert.equal(recognition.openSessions, 2);
    assert.equal((await readdir(`${dataDir}/live`)).length, 2);
    await first.release();
    await first.release(); // a second release frees nothing more
    assert.equal(recognition.openSessions, 1);
    const third = await recognition.openSession(() => undefined);
    assert.equal(recognition.openSessions, 2);
    await Promise.all([second.release(), third.release()]);
    assert.equal(recognition.openSessions, 0);
    assert.deepEqual(await readdir(`${dataDir}/live`), []);
  });

  it('reports a session idle once nobody touched it for the idle limit, and never after release', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const recognition = liveRecognition(schedulingEngine().engine, dataDir, { idleMs: 50 });
    const idle = await new Promise<boolean>((resolve) => {
      void recognition.openSession(() => resolve(true));
    });
    assert.equal(idle, true);
    let calledAfterRelease = false;
    const released = await recognition.openSession(() => (calledAfterRelease = true));
    await released.release();
    // A session opened after it, with the same limit, going idle: by then the released one's timer would have fired.
    await new Promise<void>((resolve) => void recognition.openSession(resolve));
    assert.equal(calledAfterRelease, false);
  });

  it('refuses limits that could never hold a session', () => {
    const { engine } = schedulingEngine();
    assert.throws(() => liveRecognition(engine, '/tmp', { maxSessions: 0 }), TypeError);
    assert.throws(() => liveRecognition(engine, '/tmp', { idleMs: -1 }), TypeError);
  });
});
