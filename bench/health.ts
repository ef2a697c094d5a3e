/**
 * `/health` while the server works (issue 24 #1, #2): its p99 latency while four clients poll GET /models
 * and one creates 99 000-character TTS jobs against a lexicon of 5 000 entries, 400 of them multi-word,
 * beside the same probe on the idle server measured in the same run. Target: p99 < 100 ms.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { figure, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const SECONDS = 15;

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

function runLoad(request: Record<string, unknown>): Promise<{ probes: number[]; jobs: number; models: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'health-load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.once('message', (message) => resolve(message as { probes: number[]; jobs: number; models: number }));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`The health load process exited with ${code}.`)));
    child.send(request);
  });
}

export async function runHealthBench(): Promise<Figure[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-health-'));
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    auth: false,
    log: silentLogger,
    engineWorkerPath: ENGINE_WORKER,
  });
  try {
    const base = server.url;
    const words = Array.from({ length: 4600 }, (_, index) => `lexword${index}`);
    const entries = [
      ...words.map((text, index) => ({ text, say: `say ${index}` })),
      ...words
        .slice(0, 400)
        .map((text, index) => ({ text: `${text} ${words[index + 1]} ${words[index + 2]}`, say: `phrase ${index}` })),
    ];
    const put = await fetch(`${base}/lexicon`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ entries }),
    });
    if (put.status !== 200) throw new Error(`PUT /lexicon answered ${put.status}: ${await put.text()}`);
    const voices = (await (await fetch(`${base}/voices?search=english&limit=1`)).json()) as { items: { id: string }[] };
    const voiceId = voices.items[0]?.id ?? '';
    let jobText = '';
    for (let index = 0; jobText.length < 99_000; index++)
      jobText += `${words[(index * 7) % words.length]} ${words[(index * 7 + 1) % words.length]} and more. `;
    jobText = jobText.slice(0, 99_000);

    const idle = await runLoad({ base, seconds: 5, pollers: 0, jobText: '', voiceId });
    const busy = await runLoad({ base, seconds: SECONDS, pollers: 4, jobText, voiceId });
    const reference = percentile(idle.probes, 0.99);
    const p99 = percentile(busy.probes, 0.99);
    const load = os.loadavg()[0].toFixed(2);
    return [
      figure(
        'health',
        '/health p99 while 4 clients poll /models and 1 creates lexicon-heavy jobs',
        p99,
        'ms',
        { kind: 'max', value: 100 },
        `idle p99 ${reference.toFixed(1)} ms, ratio ${(p99 / Math.max(reference, 0.001)).toFixed(1)}; p50 ${percentile(busy.probes, 0.5).toFixed(1)} ms; ${busy.models} /models, ${busy.jobs} jobs; load ${load}`,
      ),
    ];
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
