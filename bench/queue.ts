/**
 * Job throughput by the size of the engine scheduler's job lane (`npm run bench -- queue`): 16 short espeak-ng
 * TTS jobs and 4 STT jobs (synthetic whisper, jfk.wav) created at once through the Local API on a server started
 * with `SPEECH_STUDIO_ENGINE_PROCESSES=(J+1)/J`, for J = 1, 2 and, with 3 cores or more, 3; each against the
 * same 20 tasks handed at once to a bare engine host with the same cap (no HTTP, store or job service), measured
 * in the same run. Targets: the jobs at least 0.9× the bare calls' throughput (what the job core costs), and
 * J = 2 at least 1.6× the throughput of J = 1 (meaningful on two free cores: on a loaded machine the second
 * process competes for the same core). Every run starts new engine processes on both sides; each side runs
 * twice per J, in alternating order (bare first, then the jobs first), and the faster run of each counts, so
 * the first run's cold caches and the other work on the machine weigh less.
 */
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';
import { compileValidators } from '../src/contract/validation';
import type { SttOptions } from '../src/contract/types';
import type { EngineTask } from '../src/engine-api/protocol';
import { startLocalServer } from '../src/host/local-server';
import { EngineHost } from '../src/jobs/engine-host';
import type { JobRecord } from '../src/jobs/types';
import { silentLogger } from '../src/util/log';
import { voiceIdFor } from '../src/voices/voice-id';
import { uploadMultipart } from '../test/helpers/multipart';
import { postJson } from '../test/helpers/server';
import { testModel } from '../test/helpers/test-models';
import { figure, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const TTS_JOBS = 16;
const STT_JOBS = 4;
const TEXT = 'The queue runs every job it can at once. Short narrations like this one finish in a moment each.';
const VOICE = { engine: 'espeak-ng' as const, engineVoiceId: 'gmw/en-US', languageCode: 'en-US' };
const STT_OPTIONS: SttOptions = {
  language: 'en',
  punctuation: false,
  diarizationEnabled: false,
  speakerCountMode: 'auto',
};
const SCALING_TARGET = 1.6;
const CORE_TARGET = 0.9;
const ROUNDS = 2;

const load = (): string => os.loadavg()[0].toFixed(1);

/** The 20 pieces of work, in the order both sides hand them over: one STT after every four TTS. */
const ORDER: ReadonlyArray<'tts' | 'stt'> = Array.from({ length: TTS_JOBS + STT_JOBS }, (_, i) =>
  (i + 1) % 5 === 0 ? 'stt' : 'tts',
);

/** Jobs per second through the Local API with a job lane of `lanes`, and the seconds creating the 20 jobs took. */
async function throughJobs(lanes: number, scratch: string, model: string): Promise<{ rate: number; creating: number }> {
  const dataDir = await mkdtemp(path.join(scratch, `jobs-${lanes}-`));
  await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
  await symlink(model, path.join(dataDir, 'models', 'whisper', path.basename(model)));
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    auth: false,
    log: silentLogger,
    engineWorkerPath: ENGINE_WORKER,
    preferredSttModel: path.basename(model),
    engineConfig: engineConfigFromEnvironment({
      ...process.env,
      SPEECH_STUDIO_ENGINE_PROCESSES: `${lanes + 1}/${lanes}`,
    }),
  });
  try {
    const ended = new Map<string, string>();
    let allDone!: () => void;
    const done = new Promise<void>((resolve) => (allDone = resolve));
    server.appDeps.jobs.on('change', (job: JobRecord) => {
      if (!['succeeded', 'failed', 'cancelled', 'interrupted'].includes(job.status)) return;
      ended.set(job.id, job.status);
      if (ended.size === ORDER.length) allDone();
    });
    const started = performance.now();
    for (const kind of ORDER) {
      const response =
        kind === 'tts'
          ? await postJson(`${server.url}/tts/jobs`, { voiceId: voiceIdFor('espeak-ng', 'gmw/en-US'), text: TEXT })
          : await uploadMultipart(
              `${server.url}/stt/jobs`,
              { language: 'en', diarizationEnabled: 'false' },
              { source: testModel('audio', 'jfk.wav'), filename: 'jfk.wav' },
            );
      if (response.status !== 200)
        throw new Error(`The bench could not create a ${kind} job: ${response.body.toString()}`);
    }
    const creating = (performance.now() - started) / 1000;
    await done;
    const seconds = (performance.now() - started) / 1000;
    const failed = [...ended].filter(([, status]) => status !== 'succeeded');
    if (failed.length > 0)
      throw new Error(`Bench jobs did not succeed: ${failed.map(([id, status]) => `${id} ${status}`).join(', ')}`);
    return { rate: ORDER.length / seconds, creating };
  } finally {
    await server.close();
  }
}

/** Tasks per second, the same work handed at once to a bare engine host whose job lane is `lanes`. */
async function throughBareHost(lanes: number, scratch: string, model: string): Promise<number> {
  const checked = compileValidators().ttsRequest({ voiceId: voiceIdFor('espeak-ng', 'gmw/en-US'), text: TEXT });
  if (!checked.ok) throw new Error(checked.message);
  const { text, ...options } = checked.value;
  const dir = await mkdtemp(path.join(scratch, `bare-${lanes}-`));
  // The model where a server's data directory has it, as for the jobs: the engine looks beside it for VAD and other models.
  const installed = path.join(dir, 'models', 'whisper', path.basename(model));
  await mkdir(path.dirname(installed), { recursive: true });
  await symlink(model, installed);
  const tasks: EngineTask[] = [];
  for (const [i, kind] of ORDER.entries()) {
    const workDir = path.join(dir, String(i));
    await mkdir(workDir);
    if (kind === 'tts') {
      await writeFile(path.join(workDir, 'text.txt'), text, 'utf8');
      tasks.push({
        kind: 'tts',
        textPath: path.join(workDir, 'text.txt'),
        outputPath: path.join(workDir, 'output.wav'),
        options,
        voice: VOICE,
      });
    } else {
      await copyFile(testModel('audio', 'jfk.wav'), path.join(workDir, 'input.wav'));
      tasks.push({
        kind: 'stt',
        inputPath: path.join(workDir, 'input.wav'),
        workDir,
        modelPath: installed,
        options: STT_OPTIONS,
      });
    }
  }
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
    limits: { maxProcesses: lanes + 1, maxJobProcesses: lanes },
  });
  try {
    const started = performance.now();
    await Promise.all(
      tasks.map((task, i) =>
        host.run(`bare-${i}`, task, { signal: new AbortController().signal, onProgress: () => undefined }),
      ),
    );
    return tasks.length / ((performance.now() - started) / 1000);
  } finally {
    await host.close();
  }
}

export async function runQueueBench(): Promise<Figure[]> {
  const cores = os.availableParallelism();
  const laneSizes = cores >= 3 ? [1, 2, 3] : [1, 2];
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-queue-'));
  const model = testModel('whisper', 'ggml-synthetic-random.bin');
  const figures: Figure[] = [];
  try {
    const jobs = new Map<number, number>();
    const bare = new Map<number, number>();
    for (const lanes of laneSizes) {
      const loadBefore = load();
      const bareRates: number[] = [];
      const jobRuns: Array<{ rate: number; creating: number }> = [];
      for (let round = 0; round < ROUNDS; round++) {
        if (round % 2 === 0) bareRates.push(await throughBareHost(lanes, scratch, model));
        jobRuns.push(await throughJobs(lanes, scratch, model));
        if (round % 2 === 1) bareRates.push(await throughBareHost(lanes, scratch, model));
      }
      const best = jobRuns.reduce((a, b) => (b.rate > a.rate ? b : a));
      bare.set(lanes, Math.max(...bareRates));
      jobs.set(lanes, best.rate);
      figures.push(
        figure(
          'queue',
          `J = ${lanes}: ${TTS_JOBS} TTS + ${STT_JOBS} STT jobs through the Local API / the same tasks on a bare engine host, in parallel`,
          jobs.get(lanes)! / bare.get(lanes)!,
          '×',
          { kind: 'min', value: CORE_TARGET },
          `jobs ${jobRuns.map((r) => r.rate.toFixed(2)).join(', ')}/s (creating them ${best.creating.toFixed(1)} s), bare ${bareRates.map((r) => r.toFixed(2)).join(', ')}/s, the faster of each counts; SPEECH_STUDIO_ENGINE_PROCESSES=${lanes + 1}/${lanes}; load ${loadBefore} → ${load()}`,
        ),
      );
    }
    for (const lanes of laneSizes.slice(1)) {
      figures.push(
        figure(
          'queue',
          `J = ${lanes} / J = 1: jobs' throughput`,
          jobs.get(lanes)! / jobs.get(1)!,
          '×',
          lanes === 2 ? { kind: 'min', value: SCALING_TARGET } : undefined,
          `bare engine host ${(bare.get(lanes)! / bare.get(1)!).toFixed(2)}×; ${cores} cores; target on ${lanes} free cores; load ${load()}`,
        ),
      );
    }
    if (cores < 3) console.log(`queue     J = 3: skipped (${cores} cores)`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return figures;
}
