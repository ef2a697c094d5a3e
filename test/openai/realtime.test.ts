/**
 * Live transcription over GET /v1/realtime with the stock `openai` SDK's Realtime WebSocket client (GA form
 * with the transcription intent, and the beta `transcription_session.update` form), against a real server
 * and engine with the synthetic whisper model and the real Silero VAD.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { OpenAIRealtimeWS as BetaRealtimeWS } from 'openai/beta/realtime/ws';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import WebSocket from 'ws';
import { localEntitlements } from '../../src/http/entitlements';
import { installSttModel } from '../helpers/stt-engine';
import { testModel } from '../helpers/test-models';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';

const RATE = 16_000;

/** The samples of a 16-bit mono WAV file. */
async function wavSamples(file: string): Promise<Int16Array> {
  const bytes = await readFile(file);
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'data')
      return new Int16Array(bytes.buffer.slice(bytes.byteOffset + at + 8, bytes.byteOffset + at + 8 + size));
    at += 8 + size + (size % 2);
  }
  throw new Error(`${file} has no data chunk`);
}

function wavFile(samples: Int16Array, rate = RATE): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

const base64 = (samples: Int16Array): string =>
  Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');

type Event = Record<string, any> & { type: string };

/** The SDK's client over plain TCP: it always asks for wss://, and this loopback server speaks ws://. */
/** What the tests use of either SDK client. */
interface RealtimeClient {
  socket: WebSocket;
  send(event: any): void;
  close(): void;
  on(event: string, listener: (...args: any[]) => void): unknown;
}

function connect(
  t: TestServer,
  form: 'ga' | 'beta' = 'ga',
): {
  rt: RealtimeClient;
  events: Event[];
  next: (type: string, from?: number) => Promise<Event>;
  closed: Promise<number>;
} {
  const client = new OpenAI({ baseURL: t.base, apiKey: 'unused' });
  const createConnection = () => net.connect({ host: '127.0.0.1', port: t.server.port });
  // The beta client has no transcription intent: it names a transcription model instead.
  const rt: RealtimeClient =
    form === 'ga'
      ? new OpenAIRealtimeWS({ intent: 'transcription', options: { createConnection } }, client)
      : new BetaRealtimeWS({ model: 'gpt-4o-transcribe', options: { createConnection } }, client);
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  rt.on('event', (event: Event) => {
    events.push(event);
    for (const wake of waiters.splice(0)) wake();
  });
  rt.on('error', () => undefined);
  const closed = new Promise<number>((resolve) =>
    rt.socket.once('close', (code: number) => {
      for (const wake of waiters.splice(0)) wake();
      resolve(code);
    }),
  );
  const next = async (type: string, from = 0): Promise<Event> => {
    for (;;) {
      const found = events.slice(from).find((event) => event.type === type);
      if (found) return found;
      if (rt.socket.readyState === WebSocket.CLOSED)
        throw new Error(`closed before ${type}: ${JSON.stringify(events.map((e) => e.type))}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { rt, events, next, closed };
}

async function stream(rt: RealtimeClient, samples: Int16Array, chunkMs: number, realTime: boolean): Promise<void> {
  const step = (RATE * chunkMs) / 1000;
  for (let at = 0; at < samples.length; at += step) {
    rt.send({ type: 'input_audio_buffer.append', audio: base64(samples.subarray(at, at + step)) });
    if (realTime) await new Promise((resolve) => setTimeout(resolve, chunkMs));
  }
}

async function installModels(dataDir: string): Promise<void> {
  await installSttModel(dataDir);
  await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
  await copyFile(
    testModel('vad/ggml-silero-v6.2.0.bin'),
    path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
  );
}

/**
 * The file transcript of a clip from a server of its own. whisper.cpp keeps its sampling state (used when a
 * poor decode falls back to higher temperatures, as the random-weight model's always do) from one
 * transcription to the next in an engine process: equal audio reads equal only as the first decode of a
 * fresh engine, on both sides of the comparison.
 */
async function fileTranscript(wav: Buffer): Promise<string> {
  const reference = await startTestServer();
  try {
    await installModels(reference.dataDir);
    const client = new OpenAI({ baseURL: reference.base, apiKey: 'unused' });
    const result = await client.audio.transcriptions.create({
      file: await toFile(wav, 'clip.wav'),
      model: 'whisper-1',
      language: 'en',
    });
    return result.text;
  } finally {
    await reference.dispose();
  }
}

/** A live server of its own, whose first completed utterance is its engine's first full decode. */
async function withFreshServer(run: (t: TestServer) => Promise<void>): Promise<void> {
  const t = await startTestServer();
  try {
    await installModels(t.dataDir);
    await run(t);
  } finally {
    await t.dispose();
  }
}

describe('GET /v1/realtime (live transcription, OpenAI Realtime protocol)', () => {
  let t: TestServer;
  let jfk: Int16Array;
  const silence = new Int16Array(RATE);

  before(async () => {
    t = await startTestServer({ realtime: { maxSessions: 4, idleMs: 30_000, maxMessageBytes: 1024 * 1024 } });
    await installModels(t.dataDir);
    jfk = await wavSamples(testModel('audio/jfk.wav'));
  });
  after(() => t.dispose());

  it('manual commit (GA session.update, 16 kHz, 100 ms chunks faster than real time): completed text equals the file transcript', () =>
    withFreshServer(async (t) => {
      const { rt, events, next } = connect(t);
      await next('session.created');
      rt.send({
        type: 'session.update',
        session: {
          type: 'transcription',
          audio: {
            input: {
              format: { type: 'audio/pcm', rate: 16000 },
              transcription: { model: 'whisper-1', language: 'en' },
              turn_detection: null,
            },
          },
        },
      } as any);
      const updated = await next('session.updated');
      assert.equal(updated.session.audio.input.turn_detection, null);
      assert.deepEqual(updated.session.audio.input.format, { type: 'audio/pcm', rate: 16000 });
      await stream(rt, jfk, 100, false);
      rt.send({ type: 'input_audio_buffer.commit' });
      const committed = await next('input_audio_buffer.committed');
      const completed = await next('conversation.item.input_audio_transcription.completed');
      assert.equal(completed.item_id, committed.item_id);
      assert.equal(completed.transcript, await fileTranscript(wavFile(jfk)));
      const deltas = events.filter((e) => e.type === 'conversation.item.input_audio_transcription.delta');
      assert.equal(deltas.map((d) => d.delta).join(''), completed.transcript);
      assert.ok(Array.isArray(completed.words));
      for (const word of completed.words)
        assert.ok(word.start <= word.end && word.end <= jfk.length / RATE + 0.001, JSON.stringify(word));
      assert.equal(
        events.some((e) => e.type.startsWith('input_audio_buffer.speech_')),
        false,
        'no turn detection in manual mode',
      );
      rt.close();
    }));

  for (const chunkMs of [20, 100]) {
    it(
      `server VAD (beta transcription_session.update, ${chunkMs} ms chunks at real time): speech started/stopped, each item's text equals the file transcript of its audio`,
      { timeout: 120_000 },
      () =>
        withFreshServer(async (t) => {
          const { rt, events, next } = connect(t, 'beta');
          await next('transcription_session.created');
          rt.send({
            type: 'transcription_session.update',
            session: {
              input_audio_format: 'pcm16',
              input_audio_sample_rate: 16000,
              input_audio_transcription: { model: 'whisper-1', language: 'en' },
              turn_detection: { type: 'server_vad', threshold: 0.5, silence_duration_ms: 300, prefix_padding_ms: 200 },
            },
          } as any);
          await next('transcription_session.updated');
          const audio = new Int16Array(jfk.length + silence.length);
          audio.set(jfk);
          await stream(rt, audio, chunkMs, chunkMs === 100);
          const started = await next('input_audio_buffer.speech_started');
          const stopped = await next('input_audio_buffer.speech_stopped');
          assert.equal(stopped.item_id, started.item_id);
          assert.ok(stopped.audio_end_ms > started.audio_start_ms);
          const completed = await next('conversation.item.input_audio_transcription.completed');
          assert.equal(completed.item_id, started.item_id);
          const cut = audio.slice((started.audio_start_ms * RATE) / 1000, (stopped.audio_end_ms * RATE) / 1000);
          assert.equal(completed.transcript, await fileTranscript(wavFile(cut)));
          // Deltas only ever add: each belongs to an item whose speech started, and none follows the item's completion.
          for (const [index, event] of events.entries()) {
            if (event.type !== 'conversation.item.input_audio_transcription.delta') continue;
            assert.ok(event.delta.length > 0);
            assert.ok(
              events
                .slice(0, index)
                .some((e) => e.type === 'input_audio_buffer.speech_started' && e.item_id === event.item_id),
            );
            assert.ok(
              !events
                .slice(0, index)
                .some(
                  (e) =>
                    e.type === 'conversation.item.input_audio_transcription.completed' && e.item_id === event.item_id,
                ),
            );
          }
          rt.close();
        }),
    );
  }

  it(
    'the two-speaker clip in 20 ms chunks at real time (GA form, server VAD): every utterance is started, stopped, committed and completed in order, and its deltas only append',
    { timeout: 120_000 },
    async () => {
      const twoSpeakers = await wavSamples(testModel('audio/multispeaker/1-two-speakers-en.wav'));
      const { rt, events, next } = connect(t);
      await next('session.created');
      rt.send({
        type: 'session.update',
        session: {
          type: 'transcription',
          audio: {
            input: {
              format: { type: 'audio/pcm', rate: 16000 },
              transcription: { language: 'en' },
              turn_detection: { type: 'server_vad', silence_duration_ms: 300 },
            },
          },
        },
      } as any);
      await next('session.updated');
      const audio = new Int16Array(twoSpeakers.length + silence.length);
      audio.set(twoSpeakers);
      await stream(rt, audio, 20, true);
      const started = await next('input_audio_buffer.speech_started');
      // The last utterance has ended once the trailing second of silence has been looked at; wait for its completion.
      const lastStarted = (): Event =>
        events.filter((e) => e.type === 'input_audio_buffer.speech_started').at(-1) as Event;
      await waitFor(
        'every started utterance to complete',
        async () => events,
        (seen) =>
          seen.some(
            (e) =>
              e.type === 'conversation.item.input_audio_transcription.completed' && e.item_id === lastStarted().item_id,
          ),
        60_000,
      );
      assert.ok(started.audio_start_ms < audio.length / 16);
      const items = events.filter((e) => e.type === 'input_audio_buffer.speech_started').map((e) => e.item_id);
      for (const item of items) {
        const order = [
          'input_audio_buffer.speech_started',
          'input_audio_buffer.speech_stopped',
          'input_audio_buffer.committed',
          'conversation.item.input_audio_transcription.completed',
        ].map((type) => events.findIndex((e) => e.type === type && e.item_id === item));
        assert.ok(
          order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])),
          `events of ${item} in order: ${order.join(',')}`,
        );
        // Deltas only add: each is non-empty and comes between its utterance's start and its completion.
        events.forEach((e, at) => {
          if (e.type !== 'conversation.item.input_audio_transcription.delta' || e.item_id !== item) return;
          assert.ok(
            e.delta.length > 0 && at > order[0] && at < order[3],
            `delta of ${item} at ${at}: ${order.join(',')}`,
          );
        });
      }
      assert.equal(
        events.filter(
          (e) => e.type === 'conversation.item.input_audio_transcription.delta' && !items.includes(e.item_id),
        ).length,
        0,
        'no delta for an utterance that never started',
      );
      rt.close();
    },
  );

  it("pcm16 at 24 kHz (OpenAI's default format) is resampled and transcribed", async () => {
    const { rt, next } = connect(t);
    await next('session.created');
    rt.send({
      type: 'session.update',
      session: { type: 'transcription', audio: { input: { turn_detection: null } } },
    } as any);
    await next('session.updated');
    const upsampled = new Int16Array(Math.floor((jfk.length * 3) / 2));
    for (let i = 0; i < upsampled.length; i += 1) upsampled[i] = jfk[Math.min(jfk.length - 1, Math.floor((i * 2) / 3))];
    for (let at = 0; at < upsampled.length; at += 2400)
      rt.send({ type: 'input_audio_buffer.append', audio: base64(upsampled.subarray(at, at + 2400)) });
    rt.send({ type: 'input_audio_buffer.commit' });
    const completed = await next('conversation.item.input_audio_transcription.completed');
    assert.equal(completed.usage.seconds, Math.ceil(jfk.length / RATE));
    rt.close();
  });

  it('G.711 input with a prompt (GA audio/pcmu, beta g711_alaw): echoed in the session, clear drops the uncommitted audio, a commit is transcribed', async () => {
    const { rt, events, next } = connect(t);
    await next('session.created');
    rt.send({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcmu' },
            transcription: { language: 'en', prompt: 'Ask not.' },
            turn_detection: null,
          },
        },
      },
    } as any);
    const updated = await next('session.updated');
    assert.deepEqual(updated.session.audio.input.format, { type: 'audio/pcmu' });
    assert.equal(updated.session.audio.input.transcription.prompt, 'Ask not.');
    // 8 kHz G.711: 0.2 s of μ-law silence (0xFF), dropped by clear, so the commit after it finds nothing.
    const ulaw = Buffer.alloc(1600, 0xff).toString('base64');
    rt.send({ type: 'input_audio_buffer.append', audio: ulaw });
    rt.send({ type: 'input_audio_buffer.clear' });
    await next('input_audio_buffer.cleared');
    let from = events.length;
    rt.send({ type: 'input_audio_buffer.commit' });
    assert.equal((await next('error', from)).error.code, 'input_audio_buffer_commit_empty');
    from = events.length;
    rt.send({ type: 'input_audio_buffer.append', audio: ulaw });
    rt.send({ type: 'input_audio_buffer.commit' });
    const committed = await next('input_audio_buffer.committed', from);
    const completed = await next('conversation.item.input_audio_transcription.completed', from);
    assert.equal(completed.item_id, committed.item_id);
    assert.equal(typeof completed.transcript, 'string');
    rt.close();

    const beta = connect(t, 'beta');
    await beta.next('transcription_session.created');
    beta.rt.send({
      type: 'transcription_session.update',
      session: { input_audio_format: 'g711_alaw', turn_detection: null },
    } as any);
    assert.equal((await beta.next('transcription_session.updated')).session.input_audio_format, 'g711_alaw');
    beta.rt.close();
  });

  it("garbage, wrong formats and events it does not serve get error events in OpenAI's shape; a huge frame closes with 1009; the server lives on", async () => {
    const { rt, events, next, closed } = connect(t);
    await next('session.created');
    const errorAfter = async (send: () => void): Promise<Event> => {
      const from = events.length;
      send();
      return next('error', from);
    };
    assert.equal((await errorAfter(() => rt.socket.send('{not json'))).error.code, 'invalid_json');
    assert.equal(
      (await errorAfter(() => rt.socket.send(Buffer.from([1, 2, 3]), { binary: true }))).error.code,
      'invalid_event',
    );
    assert.equal((await errorAfter(() => rt.socket.send('[1,2]'))).error.code, 'invalid_event');
    const wrongFormat = await errorAfter(() =>
      rt.send({
        type: 'session.update',
        event_id: 'ev1',
        session: { type: 'transcription', audio: { input: { format: { type: 'audio/mp3' } } } },
      } as any),
    );
    assert.deepEqual(
      { ...wrongFormat.error, message: undefined },
      {
        type: 'invalid_request_error',
        code: 'invalid_value',
        param: 'session.audio.input.format.type',
        event_id: 'ev1',
        message: undefined,
      },
    );
    assert.equal(
      (
        await errorAfter(() =>
          rt.send({ type: 'transcription_session.update', session: { input_audio_format: 'opus' } } as any),
        )
      ).error.param,
      'session.input_audio_format',
    );
    assert.equal(
      (await errorAfter(() => rt.send({ type: 'input_audio_buffer.append', audio: 'not base64!' }))).error.param,
      'audio',
    );
    assert.equal(
      (await errorAfter(() => rt.send({ type: 'input_audio_buffer.commit' }))).error.code,
      'input_audio_buffer_commit_empty',
    );
    assert.equal((await errorAfter(() => rt.send({ type: 'response.create' } as any))).error.code, 'unsupported_event');
    rt.socket.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: 'A'.repeat(2 * 1024 * 1024) }));
    assert.equal(await closed, 1009);
    const again = connect(t);
    await again.next('session.created');
    again.rt.close();
  });

  it(
    'holds the session cap: of 50 clients at once, 4 get a session and 46 an error event and close code 1013',
    { timeout: 60_000 },
    async () => {
      const clients = Array.from({ length: 50 }, () => connect(t));
      const outcomes = await Promise.all(
        clients.map(async (c) => {
          const first = await c.next('session.created').then(
            () => 'session',
            () => 'refused',
          );
          return first;
        }),
      );
      const refused = clients.filter((_c, i) => outcomes[i] === 'refused');
      assert.equal(outcomes.filter((o) => o === 'session').length, 4);
      for (const c of refused) {
        assert.equal(await c.closed, 1013);
        assert.equal(c.events.find((e) => e.type === 'error')?.error.code, 'session_limit_reached');
      }
      for (const c of clients) c.rt.close();
      await waitFor(
        'the sessions to end',
        async () => t.server.liveSessionCount,
        (n) => n === 0,
        10_000,
      );
    },
  );

  it('closing the socket mid-transcription cancels it and frees the session and its files', async () => {
    const { rt, next } = connect(t);
    await next('session.created');
    rt.send({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: { input: { format: { type: 'audio/pcm', rate: 16000 }, turn_detection: null } },
      },
    } as any);
    await next('session.updated');
    await stream(rt, jfk, 100, false);
    rt.send({ type: 'input_audio_buffer.commit' });
    await next('input_audio_buffer.committed');
    rt.close();
    await waitFor(
      'the session to end',
      async () => t.server.liveSessionCount,
      (n) => n === 0,
      10_000,
    );
    await waitFor(
      'its files to go',
      async () => readdir(path.join(t.dataDir, 'live')),
      (left) => left.length === 0,
      10_000,
    );
  });

  it("refuses browsers, a missing intent, a wrong key, the API switched off and an account without stt before upgrading, with the Local API's error body", async () => {
    const url = `ws://127.0.0.1:${t.server.port}/v1/realtime`;
    const browser = await refusal(`${url}?intent=transcription`, { Origin: 'https://example.com' });
    assert.deepEqual([browser.status, browser.body.error.code], [403, 'ORIGIN_NOT_ALLOWED']);
    const noIntent = await refusal(url, {});
    assert.deepEqual([noIntent.status, noIntent.body.error.code], [422, 'INVALID_REQUEST']);
    const rebound = await refusal(`${url}?intent=transcription`, { Host: 'evil.example' });
    assert.deepEqual([rebound.status, rebound.body.error.code], [403, 'HOST_NOT_ALLOWED']);
    t.server.setAuth(true);
    try {
      const noKey = await refusal(`${url}?intent=transcription`, {});
      assert.deepEqual([noKey.status, noKey.body.error.code], [401, 'AUTH_REQUIRED']);
    } finally {
      t.server.setAuth(false);
    }
    t.server.setEnabled(false);
    try {
      const off = await refusal(`${url}?intent=transcription`, {});
      assert.deepEqual([off.status, off.body.error.code], [503, 'LOCAL_API_DISABLED']);
    } finally {
      t.server.setEnabled(true);
    }
    const noStt = await startTestServer({ entitlements: localEntitlements(['stt']) });
    try {
      const refused = await refusal(`ws://127.0.0.1:${noStt.server.port}/v1/realtime?intent=transcription`, {});
      assert.deepEqual(
        [refused.status, refused.body.error.code, refused.body.error.feature],
        [402, 'ENTITLEMENT_REQUIRED', 'stt'],
      );
    } finally {
      await noStt.dispose();
    }
  });
});

/** The status and JSON error body of an upgrade the server refuses (rejects if it upgrades). */
function refusal(address: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(address, { headers });
    ws.on('open', () => {
      ws.close();
      reject(new Error('upgraded'));
    });
    ws.on('error', () => undefined);
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    });
  });
}

describe('GET /v1/realtime idle sessions', () => {
  it('closes a session that sends nothing for the idle limit (4000) and frees it', async () => {
    const t = await startTestServer({ realtime: { idleMs: 300 } });
    try {
      await installSttModel(t.dataDir);
      const { next, closed } = connect(t);
      await next('session.created');
      assert.equal(await closed, 4000);
      await waitFor(
        'the session to end',
        async () => t.server.liveSessionCount,
        (n) => n === 0,
        10_000,
      );
    } finally {
      await t.dispose();
    }
  });
});
