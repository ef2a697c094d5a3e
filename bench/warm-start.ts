/**
 * The costs a client meets first (issue #44), each as a ratio against a reference measured in the same run,
 * with the load average:
 *   - MP3, OpenAI's default, from POST /audio/speech (2 000 characters, espeak-ng): first byte / whole response
 *     (target ≤ 0.15) and the first byte in ms (target ≤ 150 ms on a quiet machine);
 *   - `node dist/cli.js serve` started → first answer of /health, against a bare node:http server's start → first
 *     answer (target ≤ 2×);
 *   - the first TTS job after the server's start / the next one (target ≤ 1.3×: the engine is kept ready);
 *   - CPU time of GET /voices / of GET /jobs/{id} in a `cli.js serve` process, read from /proc (target ≤ 3×: the
 *     library is kept in memory).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLocalServer, type LocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { figure, median, type Figure } from './report';

const DIST = path.resolve(__dirname, '..', 'dist');
const TEXT = 'The committee met on a rainy Tuesday to review the plans for the new library. '.repeat(26).slice(0, 2000);
const ROUNDS = 5;
const VOICE_NAME = 'English (America)';
const load = (): string => `load ${os.loadavg()[0].toFixed(1)}`;

async function firstAnswer(args: string[], url: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  try {
    for (;;) {
      const answered = await fetch(url).then(
        () => true,
        () => false,
      );
      if (answered) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function startToHealth(): Promise<Figure> {
  const bare: number[] = [];
  const ours: number[] = [];
  for (let round = 0; round < 3; round++) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-start-'));
    const port = 41_000 + round;
    const server = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port + 100}, '127.0.0.1')`;
    bare.push(await firstAnswer(['-e', server], `http://127.0.0.1:${port + 100}/`));
    const serve = [path.join(DIST, 'cli.js'), 'serve', '--port', String(port), '--data-dir', dataDir, '--auth', 'off'];
    ours.push(await firstAnswer(serve, `http://127.0.0.1:${port}/v1/health`));
    await rm(dataDir, { recursive: true, force: true });
  }
  const detail = `${median(ours).toFixed(0)} ms / bare ${median(bare).toFixed(0)} ms, ${load()}`;
  return figure(
    'warm',
    'start → /health / bare node:http',
    median(ours) / median(bare),
    '×',
    { kind: 'max', value: 2 },
    detail,
  );
}

async function speech(server: LocalServer, format: 'mp3' | 'wav'): Promise<{ first: number; whole: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/audio/speech`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: TEXT, response_format: format }),
  });
  let first = 0;
  let bytes = 0;
  for await (const chunk of response.body!) {
    bytes += (chunk as Uint8Array).length;
    if (first === 0 && bytes > (format === 'wav' ? 44 : 0)) first = performance.now() - started;
  }
  return { first, whole: performance.now() - started };
}

async function ttsJob(server: LocalServer, voiceId: string): Promise<number> {
  const started = performance.now();
  const created = await fetch(`${server.url}/tts/jobs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ voiceId, text: TEXT.slice(0, 300) }),
  });
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    const job = (await (await fetch(`${server.url}/jobs/${id}`)).json()) as { status: string };
    if (!['queued', 'loading_model', 'processing'].includes(job.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}

/** CPU seconds a process has used so far (Linux /proc; utime + stime in clock ticks of 1/100 s). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The server's own CPU per request, in ms: a `cli.js serve` process, measured from outside it. */
async function serverCpuPerRequest(pid: number, url: string, requests = 1000): Promise<number> {
  const before = cpuOf(pid);
  for (let i = 0; i < requests; i++) await (await fetch(url)).arrayBuffer();
  return ((cpuOf(pid) - before) * 1000) / requests;
}

async function listingCost(): Promise<Figure> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-voices-'));
  const port = 41_200;
  const base = `http://127.0.0.1:${port}/v1`;
  const child = spawn(
    process.execPath,
    [path.join(DIST, 'cli.js'), 'serve', '--port', String(port), '--data-dir', dataDir, '--auth', 'off'],
    { stdio: 'ignore' },
  );
  try {
    await firstAnswerOf(`${base}/health`);
    const page = (await (await fetch(`${base}/voices?search=${encodeURIComponent(VOICE_NAME)}&limit=100`)).json()) as {
      items: Array<{ id: string; name: string }>;
    };
    const voiceId = page.items.find((voice) => voice.name === VOICE_NAME)!.id;
    const created = await fetch(`${base}/tts/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ voiceId, text: 'One.' }),
    });
    const { id } = (await created.json()) as { id: string };
    await serverCpuPerRequest(child.pid!, `${base}/voices?limit=20`, 50);
    await serverCpuPerRequest(child.pid!, `${base}/jobs/${id}`, 50);
    const voices = await serverCpuPerRequest(child.pid!, `${base}/voices?limit=20`);
    const job = await serverCpuPerRequest(child.pid!, `${base}/jobs/${id}`);
    const detail = `${voices.toFixed(2)} / ${job.toFixed(2)} ms of the server's CPU, ${load()}`;
    return figure('warm', 'GET /voices CPU / GET /jobs/{id} CPU', voices / job, '×', { kind: 'max', value: 3 }, detail);
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function firstAnswerOf(url: string): Promise<void> {
  for (;;) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function runWarmStartBench(): Promise<Figure[]> {
  const figures: Figure[] = [await startToHealth()];
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-warm-'));
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    auth: false,
    log: silentLogger,
    engineWorkerPath: path.join(DIST, 'engine-worker.js'),
  });
  try {
    // The engine is started with the server; a client's first job comes a moment later.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const page = (await (
      await fetch(`${server.url}/voices?search=${encodeURIComponent(VOICE_NAME)}&limit=100`)
    ).json()) as {
      items: Array<{ id: string; name: string }>;
    };
    const voiceId = page.items.find((voice) => voice.name === VOICE_NAME)!.id;
    const first = await ttsJob(server, voiceId);
    const warm = median([await ttsJob(server, voiceId), await ttsJob(server, voiceId), await ttsJob(server, voiceId)]);
    figures.push(
      figure(
        'warm',
        'first TTS job / warm job',
        first / warm,
        '×',
        { kind: 'max', value: 1.3 },
        `${first.toFixed(0)} / ${warm.toFixed(0)} ms, ${load()}`,
      ),
    );

    await speech(server, 'mp3');
    const mp3: Array<{ first: number; whole: number }> = [];
    for (let round = 0; round < ROUNDS; round++) mp3.push(await speech(server, 'mp3'));
    const firstMs = median(mp3.map((r) => r.first));
    const ratio = median(mp3.map((r) => r.first / r.whole));
    figures.push(figure('warm', 'MP3 first byte / whole', ratio, '', { kind: 'max', value: 0.15 }, load()));
    figures.push(
      figure('warm', 'MP3 first byte', firstMs, 'ms', { kind: 'max', value: 150 }, `quiet machine; ${load()}`),
    );
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  figures.push(await listingCost());
  return figures;
}
