/**
 * The rules every live transcription session follows, whichever door opened it: one cap over the WebSocket
 * sessions (GET /v1/realtime) and the in-process ones (the extension API's), one idle limit, and a session
 * whose client vanished is freed. A real server, engine and sockets on loopback.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { LiveSessionLimitError, type LiveSessionEnd } from '../../src/jobs/live-recognition';
import { installSttModel } from '../helpers/stt-engine';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';

type Event = Record<string, any> & { type: string };

/** A plain WebSocket client: its events, the first event of a type, and its close code. */
function connect(t: TestServer): {
  ws: WebSocket;
  events: Event[];
  first(type: string): Promise<Event>;
  closed: Promise<number>;
} {
  const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}/v1/realtime?intent=transcription`);
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data: Buffer) => {
    events.push(JSON.parse(data.toString('utf8')));
    for (const wake of waiters.splice(0)) wake();
  });
  ws.on('error', () => undefined);
  const closed = new Promise<number>((resolve) =>
    ws.once('close', (code: number) => {
      for (const wake of waiters.splice(0)) wake();
      resolve(code);
    }),
  );
  const first = async (type: string): Promise<Event> => {
    for (;;) {
      const found = events.find((event) => event.type === type);
      if (found) return found;
      if (ws.readyState === WebSocket.CLOSED) throw new Error(`closed before ${type}: ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { ws, events, first, closed };
}

const liveFiles = async (t: TestServer): Promise<string[]> => readdir(path.join(t.dataDir, 'live')).catch(() => []);

describe('live sessions: one cap over every door', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ realtime: { maxSessions: 3 } });
    await installSttModel(t.dataDir);
  });
  after(() => t.dispose());

  it('2 WebSocket sessions and 1 in-process session fill a cap of 3: the next WebSocket gets session_limit_reached and 1013, the next in-process session a LiveSessionLimitError', async () => {
    const inProcess = await t.server.openLiveSession(() => undefined);
    const sockets = [connect(t), connect(t)];
    for (const socket of sockets) await socket.first('session.created');
    assert.equal(t.server.liveSessionCount, 3);

    const refused = connect(t);
    assert.equal(await refused.closed, 1013);
    const error = refused.events.find((event) => event.type === 'error');
    assert.equal(error?.error.code, 'session_limit_reached');
    assert.match(error?.error.message, /3 live transcription sessions at most/);
    assert.equal(
      refused.events.some((event) => event.type === 'session.created'),
      false,
    );

    await assert.rejects(
      t.server.openLiveSession(() => undefined),
      (rejection: unknown) => {
        assert.ok(rejection instanceof LiveSessionLimitError);
        assert.equal(rejection.code, 'session_limit_reached');
        assert.match(rejection.message, /3 live transcription sessions at most; try again when one ends/);
        return true;
      },
    );

    // Ending the in-process session frees its slot for a WebSocket client.
    await inProcess.close();
    assert.equal(t.server.liveSessionCount, 2);
    const admitted = connect(t);
    await admitted.first('session.created');
    for (const socket of [...sockets, admitted]) socket.ws.close();
    await waitFor(
      'every session to end',
      async () => t.server.liveSessionCount,
      (n) => n === 0,
      10_000,
    );
    await waitFor(
      'their files to go',
      () => liveFiles(t),
      (left) => left.length === 0,
      10_000,
    );
  });

  it('a WebSocket client that vanishes (its connection cut, no close frame) frees its session and its files', async () => {
    const client = connect(t);
    await client.first('session.created');
    assert.equal(t.server.liveSessionCount, 1);
    (client.ws as unknown as { _socket: net.Socket })._socket.destroy();
    await waitFor(
      'the session to end',
      async () => t.server.liveSessionCount,
      (n) => n === 0,
      10_000,
    );
    await waitFor(
      'its files to go',
      () => liveFiles(t),
      (left) => left.length === 0,
      10_000,
    );
  });
});

describe('live sessions: the idle limit', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ realtime: { idleMs: 300 } });
    await installSttModel(t.dataDir);
  });
  after(() => t.dispose());

  it('ends an in-process session sent nothing for the idle limit, tells its opener why, and frees it', async () => {
    const ended = new Promise<LiveSessionEnd>((resolve) => {
      void t.server.openLiveSession(() => undefined, resolve);
    });
    const end = await ended;
    assert.equal(end.code, 'session_idle');
    assert.match(end.message, /was sent nothing for 0\.3 s and has ended/);
    await waitFor(
      'the session to end',
      async () => t.server.liveSessionCount,
      (n) => n === 0,
      10_000,
    );
    await waitFor(
      'its files to go',
      () => liveFiles(t),
      (left) => left.length === 0,
      10_000,
    );
  });

  it('drops a WebSocket client that neither answers pings nor the idle close, and frees its session', async () => {
    // A raw client: it completes the upgrade, then reads nothing and writes nothing.
    const socket = net.connect({ host: '127.0.0.1', port: t.server.port });
    socket.on('error', () => undefined);
    const upgraded = new Promise<string>((resolve) =>
      socket.once('data', (data: Buffer) => resolve(data.toString('latin1'))),
    );
    socket.write(
      [
        'GET /v1/realtime?intent=transcription HTTP/1.1',
        `Host: 127.0.0.1:${t.server.port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
    assert.match(await upgraded, /^HTTP\/1\.1 101 /);
    socket.pause();
    await waitFor(
      'the session to open',
      async () => t.server.liveSessionCount,
      (n) => n === 1,
      10_000,
    );
    await waitFor(
      'the silent client to be dropped',
      async () => t.server.liveSessionCount,
      (n) => n === 0,
      15_000,
    );
    await waitFor(
      'its files to go',
      () => liveFiles(t),
      (left) => left.length === 0,
      10_000,
    );
    socket.destroy();
  });
});
