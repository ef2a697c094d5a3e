/**
 * Cancel latency: `POST /jobs/{id}/cancel` on a running job → its answer, for a TTS job synthesizing a long
 * text (espeak-ng) and an STT job transcribing a long recording (synthetic whisper), median of 3 each, with
 * the time the engine process then takes to end beside it. Also the next request answered after the server
 * refused a compression bomb on the same keep-alive connection. The tests assert that these happen (the job
 * ends cancelled, the engine process goes, the connection serves the next request); this measures how fast.
 * Targets: cancel answered ≤ 1000 ms; next request after a refused body ≤ 1000 ms.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { startLocalServer, type LocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { uploadMultipart } from '../test/helpers/multipart';
import { testModel } from '../test/helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../test/helpers/voices';
import { figure, median, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const ROUNDS = 3;

const json = async (url: string, init?: RequestInit): Promise<any> => (await fetch(url, init)).json();

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`The bench timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Cancels a job once `running` says it is under way: [ms to the cancel's answer, ms until its engine process ended]. */
async function cancelWhileRunning(
  server: LocalServer,
  id: string,
  running: (job: any) => boolean,
): Promise<[number, number]> {
  await until(() => json(`${server.url}/jobs/${id}`), running, `job ${id} to run`);
  const pids = server.engine.pids;
  const started = performance.now();
  const answer = await json(`${server.url}/jobs/${id}/cancel`, { method: 'POST' });
  const answered = performance.now() - started;
  if (answer.status !== 'cancelled') throw new Error(`The cancel answered ${JSON.stringify(answer)}`);
  await until(
    async () => pids.filter(alive),
    (left) => left.length === 0,
    'the engine to end',
  );
  return [answered, performance.now() - started];
}

/** ms from a refused gzip bomb's answer to the next answer on the same keep-alive connection. */
async function nextAfterBomb(server: LocalServer): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 1 });
    const refused = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        `${server.url}/tts/jobs`,
        { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } },
        resolve,
      );
      req.on('error', reject);
      req.end(bomb);
    });
    refused.resume();
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      http.get(`${server.url}/health`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    return performance.now() - started;
  } finally {
    agent.destroy();
  }
}

export async function runCancelBench(): Promise<Figure[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-cancel-'));
  const long = path.join(dataDir, 'long.wav');
  await promisify(execFile)('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-stream_loop',
    '5',
    '-i',
    testModel('audio/alice-sample-16k.wav'),
    '-c:a',
    'pcm_s16le',
    long,
  ]);
  await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
  await symlink(
    testModel('whisper/ggml-synthetic-random.bin'),
    path.join(dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
  );
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    auth: false,
    log: silentLogger,
    engineWorkerPath: ENGINE_WORKER,
  });
  try {
    const voiceId = await englishVoiceId(server.url);
    const tts: Array<[number, number]> = [];
    const stt: Array<[number, number]> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const speaking = await json(`${server.url}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voiceId, text: LONG_TEXT }),
      });
      tts.push(await cancelWhileRunning(server, speaking.id, (job) => job.status === 'processing'));
      const upload = await uploadMultipart(
        `${server.url}/stt/jobs`,
        { diarizationEnabled: 'false', language: 'en' },
        { source: long, filename: 'long.wav' },
      );
      stt.push(await cancelWhileRunning(server, upload.json().id, (job) => job.phase === 'transcribing'));
    }
    const bomb: number[] = [];
    for (let round = 0; round < ROUNDS; round++) bomb.push(await nextAfterBomb(server));
    const load = `load ${os.loadavg()[0].toFixed(1)}`;
    return [
      figure(
        'cancel',
        'running TTS job: cancel answered',
        median(tts.map(([a]) => a)),
        'ms',
        { kind: 'max', value: 1000 },
        `median of ${ROUNDS}; engine process gone after ${median(tts.map(([, b]) => b)).toFixed(0)} ms; ${load}`,
      ),
      figure(
        'cancel',
        'transcribing STT job: cancel answered',
        median(stt.map(([a]) => a)),
        'ms',
        { kind: 'max', value: 1000 },
        `median of ${ROUNDS}; engine process gone after ${median(stt.map(([, b]) => b)).toFixed(0)} ms; ${load}`,
      ),
      figure(
        'cancel',
        'next request after a refused gzip bomb, same connection',
        median(bomb),
        'ms',
        { kind: 'max', value: 1000 },
        `median of ${ROUNDS}; ${load}`,
      ),
    ];
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
