/**
 * The live session rules in the core (src/jobs/live-recognition.ts), with an engine that records what it is
 * asked: every look is `interactive` engine work (the scheduler runs it before analysis and queued jobs; see
 * engine-scheduler.test.ts), sessions take slots in call order up to the cap, an untouched session is reported
 * idle, and release frees the slot and the session's files.
 */
import assert from 'node:assert/strict';
import { readdir, rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import type { LiveWindowResult } from '../../src/engine-api/protocol';
import type { EngineHost } from '../../src/jobs/engine-host';
import { liveRecognition, LiveSessionLimitError } from '../../src/jobs/live-recognition';
import { waitFor } from '../helpers/server';
import { tempDir } from '../helpers/temp';

/** An engine that answers every live look at once and records the priority it was asked for. */
function recordingEngine(): { engine: EngineHost; priorities: Array<string | undefined> } {
  const priorities: Array<string | undefined> = [];
  const engine = {
    run: async (_id: string, _task: unknown, options: { priority?: string }) => {
      priorities.push(options.priority);
      const result: LiveWindowResult = { durationSeconds: 0.1, speech: [], text: '', words: [], language: 'en' };
      return { result };
    },
  } as unknown as EngineHost;
  return { engine, priorities };
}

describe('liveRecognition', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('asks the engine scheduler for interactive priority for every look, ahead of queued jobs', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const { engine, priorities } = recordingEngine();
    const recognition = liveRecognition(engine, dataDir);
    const files = await recognition.openSession(() => undefined);
    const look = { modelPath: '/m.bin', language: 'en', decode: true, vadThreshold: 0.5 };
    await recognition.look(files, () => ({ pcm: new Int16Array(1600), look }), new AbortController().signal, 'final');
    await recognition.look(files, () => ({ pcm: new Int16Array(1600), look: { ...look, preview: true } }), new AbortController().signal);
    assert.deepEqual(priorities, ['interactive', 'interactive']);
    await files.release();
  });

  it('runs a committed utterance\'s decode before looks that waited longer, and plans each look when its turn comes, telling it how many wait', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const order: string[] = [];
    let release: () => void = () => undefined;
    let runs = 0;
    const engine = {
      run: async (_id: string, task: { decode: boolean }) => {
        runs += 1;
        if (runs === 2) await new Promise<void>((resolve) => { release = resolve; });
        const result: LiveWindowResult = { durationSeconds: 0.1, speech: [], text: task.decode ? 'x' : '', words: [], language: 'en' };
        return { result };
      },
    } as unknown as EngineHost;
    const recognition = liveRecognition(engine, dataDir);
    const files = await recognition.openSession(() => undefined);
    const signal = new AbortController().signal;
    const plan = (name: string, decode: boolean) => ({ waiting }: { waiting: number }) => {
      order.push(`${name}:${waiting}`);
      return { pcm: new Int16Array(160), look: { modelPath: '/m.bin', language: 'en', decode, vadThreshold: 0.5 } };
    };
    await recognition.look(files, plan('look-a', false), signal);
    const blocked = recognition.look(files, plan('look-b', false), signal);
    const lookC = recognition.look(files, plan('look-c', false), signal);
    const final = recognition.look(files, plan('final', true), signal, 'final');
    // look-b holds the engine; the final waits ahead of look-c although it asked later.
    await waitFor('look-b to reach the engine', async () => runs, (count) => count === 2, 10_000);
    assert.deepEqual(order, ['look-a:0', 'look-b:2']);
    release();
    await Promise.all([blocked, lookC, final]);
    assert.deepEqual(order, ['look-a:0', 'look-b:2', 'final:1', 'look-c:0']);
    await files.release();
  });

  it('gives out slots in call order up to the cap, refuses the next with LiveSessionLimitError, and frees a slot on release', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const recognition = liveRecognition(recordingEngine().engine, dataDir, { maxSessions: 2 });
    const opening = [1, 2, 3].map(() => recognition.openSession(() => undefined));
    const refused = assert.rejects(opening[2], (error: unknown) => error instanceof LiveSessionLimitError && error.maxSessions === 2 && error.code === 'session_limit_reached');
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
    const recognition = liveRecognition(recordingEngine().engine, dataDir, { idleMs: 50 });
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
    const { engine } = recordingEngine();
    assert.throws(() => liveRecognition(engine, '/tmp', { maxSessions: 0 }), TypeError);
    assert.throws(() => liveRecognition(engine, '/tmp', { idleMs: -1 }), TypeError);
  });
});
