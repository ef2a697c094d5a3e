/**
 * Relay benchmark lines for `npm run bench`:
 *   - round trip of a 30 s STT job through the relay versus the same job on the device's Local API (target ≤ 1.2);
 *   - dispatch latency, creation to device start (p50/p99, target p99 < 100 ms on loopback);
 *   - jobs per second the relay accepts with a pool of 10 simulated devices.
 * The relay runs as its own process (dist/relay.js, embedded PGlite unless DATABASE_URL is set); the device
 * is a real headless server (dist/cli.js) with the synthetic whisper model.
 */
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../src/relay/data/api-keys';
import { ensureAccount } from '../src/relay/data/accounts';
import { enrolDevice } from '../src/relay/data/devices';
import { openDatabase } from '../src/relay/db/open-database';
import { silentLogger } from '../src/util/log';
import { uploadMultipart } from '../test/helpers/multipart';
import { postJson, request, tempDir, waitFor } from '../test/helpers/server';
import { testModel } from '../test/helpers/test-models';
import { startDevice } from '../test/remote/helpers/device';
import { freePort } from '../test/remote/helpers/postgres';
import { startRelayProcess } from '../test/remote/helpers/relay';
import { ENGLISH_VOICE } from '../test/remote/helpers/scenarios';
import { startSimulatedDevice } from './relay-sim-device';

export interface RelayBenchFigures {
  database: 'pglite' | 'postgres';
  sttAudioSeconds: number;
  sttLocalSeconds: number;
  sttRelaySeconds: number;
  roundTripRatio: number;
  dispatchSamples: number;
  dispatchP50Ms: number;
  dispatchP99Ms: number;
  simulatedDevices: number;
  acceptedPerSecond: number;
  /** Jobs completed over the time from the first creation to the last completion. */
  completedPerSecond: number;
  completedJobs: number;
  acceptedJobs: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

/** Create, poll every 10 ms until it ends, fetch the transcript: what a script calling either API does. */
async function sttRoundTrip(base: string, headers: Record<string, string>, file: string): Promise<number> {
  const start = performance.now();
  const created = await uploadMultipart(
    `${base}/stt/jobs`,
    { language: 'en', diarizationEnabled: 'false' },
    { source: file, filename: path.basename(file) },
    headers,
  );
  if (created.status !== 200) throw new Error(`STT creation answered ${created.status}: ${created.body.toString()}`);
  const id = created.json().id;
  const job = await waitFor(
    'the STT job',
    async () => (await request(`${base}/jobs/${id}`, { headers })).json(),
    (j) => TERMINAL.has(j.status),
    300_000,
  );
  if (job.status !== 'succeeded') throw new Error(`The STT job ended ${job.status}: ${job.error}`);
  const transcript = await request(`${base}/jobs/${id}/transcript`, { headers });
  if (transcript.status !== 200) throw new Error(`The transcript answered ${transcript.status}`);
  return (performance.now() - start) / 1000;
}

export async function measureRelay(
  options: { rounds?: number; dispatchSamples?: number; throughputSeconds?: number } = {},
): Promise<RelayBenchFigures> {
  const rounds = Math.max(1, options.rounds ?? 3);
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = await tempDir('speech-bench-relay-');
  const cleanups: Array<() => Promise<unknown>> = [() => rm(dataDir, { recursive: true, force: true })];
  try {
    // Administration first, in this process; then the relay process takes the (embedded) database over.
    const db = await openDatabase({ databaseUrl, dataDir, log: silentLogger });
    const account = await ensureAccount(db, { initialCredits: 1e9, storageQuotaBytes: 1e12 });
    const real = await enrolDevice(db, account.id, 'bench device');
    const sims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => enrolDevice(db, account.id, `simulated ${i + 1}`)),
    );
    const limits = { rpm: 100_000, maxConcurrentJobs: 1000 };
    const scopes = ['tts.create', 'stt.create', 'jobs.read', 'voices.read', 'capabilities.read'];
    const deviceKey = (
      await createApiKey(db, account.id, { name: 'bench device', scopes, pool: [real.device.id], ...limits })
    ).plaintext;
    const poolKey = (
      await createApiKey(db, account.id, { name: 'bench pool', scopes, pool: sims.map((s) => s.device.id), ...limits })
    ).plaintext;
    await db.close();

    const port = await freePort();
    const args = [
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    ];
    const relay = await startRelayProcess(args);
    cleanups.unshift(() => relay.stop());
    const device = await startDevice({ relayOrigin: relay.origin, token: real.token, stt: true });
    cleanups.unshift(() => device.dispose());
    await device.connected();
    const auth = { Authorization: `Bearer ${deviceKey}` };

    process.stderr.write('relay  measuring: 30 s STT round trips…\n');
    // 1. A 30 s STT job: the device's own Local API versus the relay, alternating, after one warm-up each.
    const audio = testModel('audio/multispeaker/pyannote-sample.wav');
    await sttRoundTrip(device.localBase, {}, audio);
    await sttRoundTrip(relay.base, auth, audio);
    const local: number[] = [];
    const remote: number[] = [];
    for (let i = 0; i < rounds; i++) {
      local.push(await sttRoundTrip(device.localBase, {}, audio));
      remote.push(await sttRoundTrip(relay.base, auth, audio));
    }

    process.stderr.write('relay  measuring: dispatch latency…\n');
    // 2. Dispatch latency on the idle real device: relay createdAt → startedAt (the device began the job).
    const latencies: number[] = [];
    for (let i = 0; i < (options.dispatchSamples ?? 100); i++) {
      const job = (
        await postJson(`${relay.base}/tts/jobs`, { voiceId: ENGLISH_VOICE, text: `Sample ${i}.` }, auth)
      ).json();
      const done = await waitFor(
        'a TTS job',
        async () => (await request(`${relay.base}/jobs/${job.id}`, { headers: auth })).json(),
        (j) => TERMINAL.has(j.status),
        60_000,
      );
      latencies.push(done.startedAt - done.createdAt);
    }

    process.stderr.write('relay  measuring: jobs per second…\n');
    // 3. Jobs accepted per second with 10 simulated devices, 16 clients creating as fast as they are answered.
    const voices = (await request(`${relay.base}/voices?search=English%20(America)`, { headers: auth })).json().items;
    const simulated = await Promise.all(sims.map((s) => startSimulatedDevice(relay.origin, s.token, voices)));
    cleanups.unshift(async () => simulated.forEach((s) => s.close()));
    const seconds = options.throughputSeconds ?? 5;
    const poolAuth = { Authorization: `Bearer ${poolKey}` };
    let accepted = 0;
    const start = performance.now();
    const until = start + seconds * 1000;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (performance.now() < until) {
          const res = await postJson(
            `${relay.base}/tts/jobs`,
            { voiceId: ENGLISH_VOICE, text: 'Throughput.' },
            poolAuth,
          );
          if (res.status !== 200) throw new Error(`Creation answered ${res.status}: ${res.body.toString()}`);
          accepted++;
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    // Completions lag creation (the devices claim through the same database the creators fill): counted at the
    // moment creation stopped, a single-connection PGlite showed "0 jobs/s completed". The rate is every
    // accepted job done, over the time from the first creation to the last completion (60 s at most).
    const doneBy = performance.now() + 60_000;
    const completedSoFar = (): number => simulated.reduce((sum, s) => sum + s.completed, 0);
    while (completedSoFar() < accepted && performance.now() < doneBy)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const completed = completedSoFar();
    const completedElapsed = (performance.now() - start) / 1000;
    const errors = simulated.flatMap((s) => s.errors);
    if (errors.length > 0)
      process.stderr.write(`relay  ${errors.length} simulated uploads failed, e.g. ${errors[0]}\n`);

    const sttLocalSeconds = median(local);
    const sttRelaySeconds = median(remote);
    return {
      database: databaseUrl ? 'postgres' : 'pglite',
      sttAudioSeconds: 30,
      sttLocalSeconds,
      sttRelaySeconds,
      roundTripRatio: sttRelaySeconds / sttLocalSeconds,
      dispatchSamples: latencies.length,
      dispatchP50Ms: percentile(latencies, 50),
      dispatchP99Ms: percentile(latencies, 99),
      simulatedDevices: simulated.length,
      acceptedPerSecond: accepted / elapsed,
      completedPerSecond: completed / completedElapsed,
      completedJobs: completed,
      acceptedJobs: accepted,
    };
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

export function relayLines(f: RelayBenchFigures): string[] {
  return [
    `relay  30 s STT round trip (${f.database}): relay ${f.sttRelaySeconds.toFixed(2)} s vs device Local API ${f.sttLocalSeconds.toFixed(2)} s, ratio ${f.roundTripRatio.toFixed(2)} (target ≤ 1.2)`,
    `relay  dispatch, creation → device start (${f.dispatchSamples} jobs): p50 ${f.dispatchP50Ms} ms, p99 ${f.dispatchP99Ms} ms (target p99 < 100 ms)`,
    `relay  ${f.simulatedDevices} simulated devices: ${f.acceptedPerSecond.toFixed(0)} jobs/s accepted, ${f.completedPerSecond.toFixed(0)} jobs/s completed (${f.completedJobs} of ${f.acceptedJobs} done)`,
  ];
}

/** What bench/run.ts calls: measures, prints the lines, returns the figures. */
export async function runRelayBench(): Promise<RelayBenchFigures> {
  const figures = await measureRelay();
  for (const line of relayLines(figures)) console.log(line);
  if (os.loadavg()[0] > os.cpus().length / 2)
    console.log(`relay  note: load average ${os.loadavg()[0].toFixed(1)}; not an idle machine`);
  return figures;
}

if (process.argv[1] && path.basename(process.argv[1]) === 'relay.ts') void runRelayBench();
