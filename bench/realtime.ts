/**
 * `npm run bench -- realtime`: the live door with the synthetic whisper model, in two figures beside the load
 * average. Plumbing overhead: seconds from `input_audio_buffer.commit` to the `completed` event for jfk.wav,
 * against the same audio as a file job through POST /audio/transcriptions in the same run (target ≤ 1.2×).
 * Capacity: how many sessions streaming jfk.wav at real time (server VAD) the machine holds at once, a
 * session being held while each utterance's `completed` event comes at most LAG_LIMIT_S after its audio was sent.
 * Every wait has a deadline, so a session that never answers fails the bench with a message, never a silent hang.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { startLocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { testModel } from '../test/helpers/test-models';
import { figure, median } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const ROUNDS = 5;
const RATE = 16_000;
/** A live utterance's completed event may come this long after its last audio was sent, for the session to count as held. */
const LAG_LIMIT_S = 3;
const SESSION_STEPS = [1, 2, 4, 8, 16];
const DEADLINE_MS = 120_000;

type Event = Record<string, any> & { type: string };

interface Session {
  rt: OpenAIRealtimeWS;
  /** Resolves with the first event of `type` from now on (rejects on an error event, a close or the deadline). */
  next(type: string): Promise<Event>;
  events: Event[];
}

function openSession(client: OpenAI, port: number, turnDetection: boolean): Promise<Session> {
  const rt = new OpenAIRealtimeWS({ intent: 'transcription', options: { createConnection: () => net.connect({ host: '127.0.0.1', port }) } as never }, client);
  const events: Event[] = [];
  const waiters = new Set<(event: Event | Error) => void>();
  rt.on('event', (event: Event) => {
    events.push(event);
    for (const wake of [...waiters]) wake(event);
  });
  rt.on('error', () => undefined); // error events reach `event` too
  rt.socket.once('close', (code: number) => {
    for (const wake of [...waiters]) wake(new Error(`the session closed (${code})`));
  });
  const next = (type: string): Promise<Event> => new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no ${type} within ${DEADLINE_MS / 1000} s; events: ${events.map((e) => e.type).join(', ')}`)), DEADLINE_MS);
    const done = (event: Event | Error): void => {
      if (!(event instanceof Error) && event.type !== type && event.type !== 'error') return;
      waiters.delete(done);
      clearTimeout(timer);
      if (event instanceof Error) reject(event);
      else if (event.type === 'error') reject(new Error(JSON.stringify(event.error)));
      else resolve(event);
    };
    waiters.add(done);
  });
  const session: Session = { rt, next, events };
  return next('session.created').then(async () => {
    const updated = next('session.updated');
    rt.send({
      type: 'session.update',
      session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcm', rate: RATE }, transcription: { model: 'whisper-1', language: 'en' }, turn_detection: turnDetection ? { type: 'server_vad' } : null } } },
    } as never);
    await updated;
    return session;
  });
}

const append = (rt: OpenAIRealtimeWS, pcm: Buffer): void => rt.send({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') } as never);

/** Streams `pcm` at real time in 100 ms chunks, then a second of silence; resolves with when each sample was sent. */
async function streamRealTime(session: Session, pcm: Buffer): Promise<{ startedAt: number }> {
  const chunk = RATE / 10 * 2;
  const all = Buffer.concat([pcm, Buffer.alloc(RATE * 2)]);
  const startedAt = performance.now();
  for (let at = 0, i = 0; at < all.length; at += chunk, i += 1) {
    append(session.rt, all.subarray(at, at + chunk));
    const due = startedAt + (i + 1) * 100;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  return { startedAt };
}

/** The longest lag, over `count` sessions streaming at once, from an utterance's last audio sent to its completed event. */
async function worstLag(client: OpenAI, port: number, pcm: Buffer, count: number): Promise<number> {
  const sessions = await Promise.all(Array.from({ length: count }, () => openSession(client, port, true)));
  try {
    const lags = await Promise.all(sessions.map(async (session) => {
      const completed = session.next('conversation.item.input_audio_transcription.completed');
      const { startedAt } = await streamRealTime(session, pcm);
      const stopped = session.events.find((e) => e.type === 'input_audio_buffer.speech_stopped') ?? await session.next('input_audio_buffer.speech_stopped');
      await completed;
      return (performance.now() - (startedAt + stopped.audio_end_ms)) / 1000;
    }));
    return Math.max(...lags);
  } finally {
    for (const session of sessions) session.rt.close();
  }
}

export async function runRealtimeBench(): Promise<unknown> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-realtime-'));
  await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
  await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
  await symlink(testModel('whisper/ggml-synthetic-random.bin'), path.join(dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'));
  await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'));
  const server = await startLocalServer({
    host: '127.0.0.1', port: 0, dataDir, auth: false, log: silentLogger, engineWorkerPath: ENGINE_WORKER,
    realtime: { maxSessions: Math.max(...SESSION_STEPS) },
  });
  try {
    const wav = await readFile(testModel('audio/jfk.wav'));
    const dataAt = wav.indexOf('data') + 8;
    const pcm = wav.subarray(dataAt, dataAt + (wav.readUInt32LE(dataAt - 4) & ~1));
    const client = new OpenAI({ baseURL: server.url, apiKey: 'unused' });
    const fileTimes: number[] = [];
    const liveTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const fileStarted = performance.now();
      await client.audio.transcriptions.create({ file: await toFile(wav, 'jfk.wav'), model: 'whisper-1', language: 'en' });
      fileTimes.push((performance.now() - fileStarted) / 1000);

      const session = await openSession(client, server.port, false);
      try {
        for (let at = 0; at < pcm.length; at += 3200) append(session.rt, pcm.subarray(at, at + 3200));
        const completed = session.next('conversation.item.input_audio_transcription.completed');
        const started = performance.now();
        session.rt.send({ type: 'input_audio_buffer.commit' } as never);
        await completed;
        liveTimes.push((performance.now() - started) / 1000);
      } finally {
        session.rt.close();
      }
    }
    const load = (): string => `load ${os.loadavg()[0].toFixed(2)}`;
    const figures = [
      figure('realtime', 'file job (jfk.wav, 11 s)', median(fileTimes), 's', undefined, load()),
      figure('realtime', 'commit → completed (same audio)', median(liveTimes), 's'),
      figure('realtime', 'live / file', median(liveTimes) / median(fileTimes), '×', { kind: 'max', value: 1.2 }, load()),
    ];

    let held = 0;
    let lastLag = 0;
    for (const count of SESSION_STEPS) {
      const lag = await worstLag(client, server.port, pcm, count);
      console.log(`realtime  ${count} session(s) at real time: worst lag ${lag.toFixed(2)} s  [${load()}]`);
      if (lag > LAG_LIMIT_S) break;
      held = count;
      lastLag = lag;
    }
    figures.push(figure('realtime', `live sessions held at real time (lag ≤ ${LAG_LIMIT_S} s), ${os.availableParallelism()} cores`, held, 'sessions',
      { kind: 'min', value: 2 }, `worst lag ${lastLag.toFixed(2)} s, tried ${SESSION_STEPS.join('/')}; ${load()}`));
    return figures;
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
