/**
 * What one Realtime client can do to every other client: a burst of tens of thousands of tiny frames in one
 * write, and a 16 MiB append, must not stall the server's event loop. /v1/health answers while they are handled.
 * A real server and a real ws client on loopback.
 * The figures are relative (a stall against the time the work takes), so a busy machine does not fail them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { installSttModel } from '../helpers/stt-engine';
import { request, startTestServer, type TestServer } from '../helpers/server';

type Event = Record<string, any> & { type: string };

interface Client {
  ws: WebSocket;
  events: Event[];
  /** Resolves once `check` holds for the events received. */
  until(check: (events: Event[]) => boolean): Promise<void>;
}

async function connect(t: TestServer): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}/v1/realtime?intent=transcription`);
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data: Buffer) => {
    events.push(JSON.parse(data.toString('utf8')) as Event);
    for (const wake of waiters.splice(0)) wake();
  });
  ws.on('error', () => undefined);
  ws.on('close', () => {
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (check: (events: Event[]) => boolean): Promise<void> => {
    while (!check(events)) {
      if (ws.readyState === WebSocket.CLOSED) throw new Error(`closed early: ${JSON.stringify(events.slice(-3))}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  await until((all) => all.some((event) => event.type === 'session.created'));
  return { ws, events, until };
}

/** `count` masked one-byte text frames, as one buffer: what a client writes in one go. */
function tinyFrames(count: number): Buffer {
  const frames = Buffer.alloc(count * 7);
  for (let i = 0; i < count; i += 1) {
    const mask = randomBytes(4);
    frames[i * 7] = 0x81; // FIN, text
    frames[i * 7 + 1] = 0x80 | 1; // masked, one byte
    mask.copy(frames, i * 7 + 2);
    frames[i * 7 + 6] = 'x'.charCodeAt(0) ^ mask[0];
  }
  return frames;
}

/** The client's TCP socket, to write frames as they are, all in one write. */
const socketOf = (ws: WebSocket): net.Socket => (ws as unknown as { _socket: net.Socket })._socket;

/** Asks /v1/health every 20 ms until `done` settles; returns the slowest answer's time, in ms. */
async function healthWhile(t: TestServer, done: Promise<unknown>): Promise<{ slowest: number; answers: number }> {
  let finished = false;
  void done.finally(() => (finished = true));
  let slowest = 0;
  let answers = 0;
  while (!finished) {
    const started = performance.now();
    assert.equal((await request(`${t.base}/health`)).status, 200);
    slowest = Math.max(slowest, performance.now() - started);
    answers += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { slowest, answers };
}

describe('Realtime: one client cannot stall the event loop', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await installSttModel(t.dataDir);
  });
  after(() => t.dispose());

  it('a burst of 50 000 one-byte frames in one write: every frame answered, /v1/health served meanwhile, no long stall', async () => {
    const client = await connect(t);
    const count = 50_000;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    socketOf(client.ws).write(tinyFrames(count));
    const answered = client.until((events) => events.filter((event) => event.type === 'error').length >= count);
    const health = await healthWhile(t, answered);
    await answered;
    const took = performance.now() - started;
    delay.disable();
    const stall = delay.max / 1e6;
    assert.ok(
      client.events.filter((event) => event.type === 'error').every((event) => event.error.code === 'invalid_json'),
    );
    // Before the frames were handled a few at a time, the loop stalled for most of the burst (13 of 28 s here).
    assert.ok(
      health.slowest < took / 4,
      `the slowest /v1/health took ${health.slowest.toFixed(0)} ms of the burst's ${took.toFixed(0)} ms`,
    );
    assert.ok(
      stall < took / 4,
      `the event loop stalled ${stall.toFixed(0)} ms during the burst's ${took.toFixed(0)} ms`,
    );
    client.ws.close();
  });

  it('a 16 MiB append: /v1/health is served while it is decoded and resampled, no long stall', async () => {
    const client = await connect(t);
    client.ws.send(
      JSON.stringify({
        type: 'session.update',
        session: { type: 'transcription', audio: { input: { turn_detection: null } } },
      }),
    );
    await client.until((events) => events.some((event) => event.type === 'session.updated'));
    // 12 MiB of 24 kHz pcm16 (about 4.4 minutes, under the 5-minute buffer) is 16 MiB of base64.
    const audio = randomBytes(12 * 1024 * 1024 - 1024).toString('base64');
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    client.ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio }));
    client.ws.send(JSON.stringify({ type: 'input_audio_buffer.clear' }));
    // The clear is handled after the append: its answer says the append is done.
    const handled = client.until((events) => events.some((event) => event.type === 'input_audio_buffer.cleared'));
    const health = await healthWhile(t, handled);
    await handled;
    const took = performance.now() - started;
    delay.disable();
    const stall = delay.max / 1e6;
    assert.deepEqual(
      client.events.filter((event) => event.type === 'error'),
      [],
    );
    // Before the audio thread, the append stalled the loop for nearly all of its handling (1.7 s here).
    assert.ok(stall < took / 3, `the event loop stalled ${stall.toFixed(0)} ms of the append's ${took.toFixed(0)} ms`);
    assert.ok(
      health.slowest < took / 3,
      `the slowest /v1/health took ${health.slowest.toFixed(0)} ms of the append's ${took.toFixed(0)} ms`,
    );
    client.ws.close();
  });
});
