/**
 * Live transcription as OpenAI's current Realtime guide and the clients that follow it use it: the key and the
 * beta protocol passed as WebSocket subprotocols (what browsers and the AI SDK send), the current model names,
 * a `bearer` scheme in lower case, and a commit of exactly 100 ms of OpenAI's default 24 kHz audio.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { installSttModel } from '../helpers/stt-engine';
import { request, startTestServer, type TestServer } from '../helpers/server';

type Event = Record<string, any> & { type: string };

interface Client {
  ws: WebSocket;
  events: Event[];
  first(type: string): Promise<Event>;
}

function connect(t: TestServer, protocols: string[], headers: Record<string, string> = {}): Client {
  const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}/v1/realtime?intent=transcription`, protocols, { headers });
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  const wake = (): void => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  ws.on('message', (data: Buffer) => {
    events.push(JSON.parse(data.toString('utf8')));
    wake();
  });
  ws.on('error', wake);
  ws.on('close', wake);
  const first = async (type: string): Promise<Event> => {
    for (;;) {
      const found = events.find((event) => event.type === type);
      if (found) return found;
      if (ws.readyState === WebSocket.CLOSED) throw new Error(`closed before ${type}: ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { ws, events, first };
}

/** The status of an upgrade the server refuses (rejects if it upgrades). */
function refusedStatus(t: TestServer, protocols: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}/v1/realtime?intent=transcription`, protocols);
    ws.on('open', () => {
      ws.close();
      reject(new Error('upgraded'));
    });
    ws.on('error', () => undefined);
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
  });
}

describe("GET /v1/realtime with the clients of OpenAI's current guide, auth on", () => {
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer({ auth: true });
    await installSttModel(t.dataDir);
    key = (await readFile(path.join(t.dataDir, 'api-key'), 'utf8')).trim();
  });
  after(() => t.dispose());

  it('takes the key from the openai-insecure-api-key subprotocol and answers with `realtime`, never the key', async () => {
    const client = connect(t, ['realtime', `openai-insecure-api-key.${key}`]);
    await client.first('session.created');
    assert.equal(client.ws.protocol, 'realtime');
    client.ws.close();
  });

  it('refuses a wrong key passed as a subprotocol with 401', async () => {
    assert.equal(await refusedStatus(t, ['realtime', `openai-insecure-api-key.${key}x`]), 401);
  });

  it('answers in the beta form when the client declares it by subprotocol', async () => {
    const client = connect(t, ['realtime', `openai-insecure-api-key.${key}`, 'openai-beta.realtime-v1']);
    await client.first('transcription_session.created');
    assert.equal(
      client.events.some((event) => event.type === 'session.created'),
      false,
    );
    client.ws.close();
  });

  it('takes the bearer scheme in any case, on HTTP and on the upgrade', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      assert.equal(
        (await request(`${t.base}/health`, { headers: { Authorization: `${scheme} ${key}` } })).status,
        200,
        scheme,
      );
    }
    const client = connect(t, [], { Authorization: `bearer ${key}` });
    await client.first('session.created');
    client.ws.close();
  });

  it('accepts the current model names in session.update, and still refuses an unknown one with invalid_value', async () => {
    const client = connect(t, [], { Authorization: `Bearer ${key}` });
    await client.first('session.created');
    for (const model of ['gpt-live-transcribe', 'gpt-realtime-whisper']) {
      const before = client.events.length;
      client.ws.send(
        JSON.stringify({
          type: 'session.update',
          session: { type: 'transcription', audio: { input: { transcription: { model } } } },
        }),
      );
      await waitForEvent(client, before, 'session.updated');
    }
    const before = client.events.length;
    client.ws.send(
      JSON.stringify({
        type: 'session.update',
        session: { type: 'transcription', audio: { input: { transcription: { model: 'no-such-model' } } } },
      }),
    );
    const error = await waitForEvent(client, before, 'error');
    assert.equal(error.error.code, 'invalid_value');
    client.ws.close();
  });

  it("commits exactly 100 ms of 24 kHz pcm16 (OpenAI's default format) instead of calling it 99 ms", async () => {
    const client = connect(t, [], { Authorization: `Bearer ${key}` });
    await client.first('session.created');
    const before = client.events.length;
    client.ws.send(
      JSON.stringify({
        type: 'session.update',
        session: {
          type: 'transcription',
          audio: { input: { format: { type: 'audio/pcm', rate: 24000 }, turn_detection: null } },
        },
      }),
    );
    await waitForEvent(client, before, 'session.updated');
    const tone = new Int16Array(2400).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / 24_000)));
    const from = client.events.length;
    client.ws.send(
      JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.from(tone.buffer).toString('base64') }),
    );
    client.ws.send(JSON.stringify({ type: 'input_audio_buffer.commit' }));
    const answer = await waitForEither(client, from, ['input_audio_buffer.committed', 'error']);
    assert.equal(answer.type, 'input_audio_buffer.committed', JSON.stringify(answer));
    client.ws.close();
  });
});

async function waitForEvent(client: Client, from: number, type: string): Promise<Event> {
  const found = await waitForEither(client, from, [type, 'error']);
  if (found.type !== type && type !== 'error') throw new Error(`expected ${type}, got ${JSON.stringify(found)}`);
  return found;
}

async function waitForEither(client: Client, from: number, types: string[]): Promise<Event> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = client.events.slice(from).find((event) => types.includes(event.type));
    if (found) return found;
    if (client.ws.readyState === WebSocket.CLOSED) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${types.join(' or ')} after event ${from}: ${JSON.stringify(client.events.slice(from))}`);
}

describe('GET /v1/realtime when the server stops', () => {
  it('closes each session with a close frame, 1001 (going away), not a cut connection (1006)', async () => {
    const t = await startTestServer();
    try {
      await installSttModel(t.dataDir);
      const client = connect(t, []);
      await client.first('session.created');
      const code = new Promise<number>((resolve) => client.ws.once('close', (closeCode: number) => resolve(closeCode)));
      await t.stop();
      assert.equal(await code, 1001);
    } finally {
      await t.dispose();
    }
  });
});
