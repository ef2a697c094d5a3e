/**
 * A Realtime client that sends but never reads its events: the server holds at most MAX_UNREAD_EVENT_BYTES of
 * events for it, then closes the session with 1008 and frees it, instead of buffering every event (341 MB
 * seen). A real server and sockets on loopback; the client's socket is paused, as a stalled reader's is. The
 * server's unread bytes are read from its WebSocket's bufferedAmount after each event it sends (the server
 * runs in this process, on this same ws package).
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { MAX_UNREAD_EVENT_BYTES } from '../../src/realtime/door';
import { installSttModel } from '../helpers/stt-engine';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';

/** Invalid JSON frames, each answered with an `error` event of about 200 bytes. */
const FRAMES = 200_000;

describe('Realtime: a client that never reads its events', () => {
  let t: TestServer;
  let largestUnread = 0;
  const { prototype } = WebSocket;
  const send = Object.getOwnPropertyDescriptor(prototype, 'send')!.value as (
    this: WebSocket,
    ...args: unknown[]
  ) => void;
  before(async () => {
    prototype.send = function (this: WebSocket, ...args: unknown[]) {
      send.apply(this, args);
      if ((this as unknown as { _isServer: boolean })._isServer)
        largestUnread = Math.max(largestUnread, this.bufferedAmount);
    } as WebSocket['send'];
    t = await startTestServer();
    await installSttModel(t.dataDir);
  });
  after(async () => {
    prototype.send = send as WebSocket['send'];
    await t.dispose();
  });

  it('is closed with 1008 once its unread events pass the bound, and its session is freed', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}/v1/realtime?intent=transcription`);
    ws.on('error', () => undefined);
    let received = 0;
    let created = false;
    ws.on('message', (data: Buffer) => {
      received += data.length;
      if (data.toString('utf8').includes('"transcription_session.created"') || data.includes('"session.created"'))
        created = true;
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code: number) => resolve(code)));
    await waitFor('the session', async () => created, Boolean, 60_000);
    const socket = (ws as unknown as { _socket: Socket })._socket;
    socket.pause();
    for (let i = 0; i < FRAMES; i++) ws.send('x');
    await waitFor(
      'the session to be freed',
      async () => t.server.realtime.sessionCount,
      (n) => n === 0,
      120_000,
    );
    socket.resume();
    const code = await closed;
    assert.ok(code === 1008 || code === 1006, `closed with ${code}`);
    // The bound, plus the one event that crossed it.
    assert.ok(largestUnread <= MAX_UNREAD_EVENT_BYTES + 64 * 1024, `${largestUnread} bytes of events were held`);
    assert.ok(received > 0);
  });
});
