/**
 * Polling: GET /jobs/{id} requests per second and p50/p99 latency, from autocannon in its own process on
 * loopback, with 10 000 finished jobs in the store and one text-to-speech job running in the engine
 * meanwhile (it competes for the same cores, as it would on a real machine).
 * Target: over 5 000 requests per second on 2 cores, p99 under 20 ms.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Result } from 'autocannon';
import { JobStore } from '../src/jobs/store';
import type { JobRecord } from '../src/jobs/types';
import { startLocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { voiceIdFor } from '../src/voices/voice-id';
import { figure, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');

function finishedJob(id: string, at: number): JobRecord {
  return {
    id,
    name: `Finished job ${id.slice(0, 8)}`,
    kind: 'tts',
    status: 'succeeded',
    progress: 100,
    phase: 'done',
    backend: 'espeak-ng',
    result: {
      mediaType: 'audio/wav',
      outputFormat: 'wav',
      sampleRate: 24000,
      audioChannels: 'mono',
      durationSeconds: 3.2,
      bytes: 153_644,
      characters: 60,
      chunks: 1,
      bitrateKbps: null,
      voice: { name: 'English (America)', engine: 'espeak-ng', languageCode: 'en-US' },
      language: 'en-US',
      speed: { value: 1, method: 'engine-rate' },
      duration: null,
      loudness: null,
      ignoredOptions: {},
    },
    error: null,
    createdAt: at,
    startedAt: at + 5,
    finishedAt: at + 900,
    origin: 'api',
    outputFile: 'output.wav',
    input: {
      kind: 'tts',
      characters: 60,
      options: {
        voiceId: voiceIdFor('espeak-ng', 'gmw/en-US'),
        language: 'auto',
        inputFormat: 'txt',
        outputFormat: 'wav',
        sampleRate: 24000,
        bitrateKbps: 128,
        audioChannels: 'mono',
        steps: 32,
        guidanceScale: 2,
        speed: 1,
        duration: null,
        denoise: true,
        preprocessPrompt: true,
        postprocessOutput: true,
        trimSilence: true,
      },
      voice: { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US' },
    },
  };
}

async function load(url: string, ids: string[], seconds: number, connections: number): Promise<Result> {
  const child = fork(path.join(__dirname, 'polling-load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  child.send({ url, ids, seconds, connections });
  const [message] = (await once(child, 'message')) as [{ result?: Result; error?: string }];
  if (!message.result) throw new Error(`autocannon failed: ${message.error}`);
  return message.result;
}

/**
 * The ceiling of this machine with this load generator: a bare node:http server answering the same job
 * JSON, no framework, no engine running. What the API reaches is to be read against it.
 */
async function bareCeiling(body: string, seconds: number, connections: number): Promise<Result> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await load(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, ['x'], seconds, connections);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
  }
}

export async function runPollingBench(
  options: { history?: number; seconds?: number; connections?: number } = {},
): Promise<Figure[]> {
  const { history = 10_000, seconds = 10, connections = 10 } = options;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-polling-'));
  try {
    const store = await JobStore.open(path.join(dataDir, 'jobs.json'), silentLogger);
    const ids: string[] = [];
    const start = Date.now() - history * 1000;
    for (let i = 0; i < history; i++) {
      const id = randomUUID();
      await store.insert(finishedJob(id, start + i * 1000));
      ids.push(id);
    }
    await store.flush();

    const server = await startLocalServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      auth: false,
      log: silentLogger,
      engineWorkerPath: ENGINE_WORKER,
      maxFinishedJobs: history + 100,
    });
    try {
      const text = 'The quick brown fox jumps over the lazy dog, and the engine keeps on reading. '
        .repeat(1300)
        .slice(0, 100_000);
      const created = await fetch(`${server.url}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voiceId: voiceIdFor('espeak-ng', 'gmw/en-US'), text }),
      });
      const running = ((await created.json()) as { id: string }).id;
      while (server.jobs.get(running)?.status !== 'processing') await new Promise((resolve) => setTimeout(resolve, 20));

      // Clients poll their own job most of the time; the rest spread over the history.
      const polled = [...Array.from({ length: 9 }, () => running), ...ids.filter((_, i) => i % 10 === 0)];
      const result = await load(`http://127.0.0.1:${server.port}`, polled, seconds, connections);
      const stillRunning = server.jobs.get(running)?.status === 'processing';
      await fetch(`${server.url}/jobs/${running}/cancel`, { method: 'POST' });
      const context = `${history} finished jobs, 1 TTS job ${stillRunning ? 'running throughout' : 'running (finished early)'}, ${connections} connections, ${seconds} s, ${os.availableParallelism()} cores`;
      const failures = result.errors + result.timeouts + result.non2xx;
      // The same load with the engine idle, and with no framework at all: what the running job and Koa cost.
      const idle = await load(`http://127.0.0.1:${server.port}`, polled, Math.min(seconds, 5), connections);
      const sample = await (await fetch(`${server.url}/jobs/${ids[0]}`)).text();
      const ceiling = await bareCeiling(sample, Math.min(seconds, 5), connections);
      return [
        figure(
          'polling',
          'GET /jobs/{id} requests per second',
          result.requests.average,
          'req/s',
          { kind: 'min', value: 5000 },
          context,
        ),
        figure('polling', 'GET /jobs/{id} latency p50', result.latency.p50, 'ms'),
        figure('polling', 'GET /jobs/{id} latency p99', result.latency.p99, 'ms', { kind: 'max', value: 20 }),
        figure(
          'polling',
          'failed or non-2xx answers',
          failures,
          '',
          { kind: 'max', value: 0 },
          `${result.requests.total} requests`,
        ),
        figure(
          'polling',
          'same, engine idle (no job running)',
          idle.requests.average,
          'req/s',
          undefined,
          `p99 ${idle.latency.p99} ms`,
        ),
        figure(
          'polling',
          'ceiling: bare node:http, same load generator, engine idle',
          ceiling.requests.average,
          'req/s',
          undefined,
          `p99 ${ceiling.latency.p99} ms`,
        ),
      ];
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
