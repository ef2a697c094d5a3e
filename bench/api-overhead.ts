/**
 * API overhead of speech-to-text: the full Local API path (multipart upload → job in the engine process →
 * polled until it succeeds → json-full transcript downloaded) against runSttTask called directly in this
 * process on the same file with the same model, medians of 5 rounds after a warm-up each (the engine
 * keeps its model loaded between jobs, as the direct calls do). Target: ratio ≤ 1.10.
 * With the synthetic whisper model, and with a real one when SPEECH_STUDIO_BENCH_MODEL names a ggml file.
 * (The text-to-speech side of the same question is bench/tts.ts.)
 */
import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SttOptions } from '../src/contract/types';
import { runSttTask } from '../src/engine/stt/run-stt';
import { startLocalServer, type LocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { uploadMultipart } from '../test/helpers/multipart';
import { testModel } from '../test/helpers/test-models';
import { figure, median, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const OPTIONS: SttOptions = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' };
const ROUNDS = 5;

async function direct(model: string, media: string, scratch: string): Promise<number> {
  const workDir = await mkdtemp(path.join(scratch, 'direct-'));
  const inputPath = path.join(workDir, `input${path.extname(media)}`);
  await copyFile(media, inputPath);
  const started = performance.now();
  await runSttTask({ kind: 'stt', inputPath, workDir, modelPath: model, options: OPTIONS }, () => undefined);
  const seconds = (performance.now() - started) / 1000;
  await rm(workDir, { recursive: true, force: true });
  return seconds;
}

async function throughApi(server: LocalServer, media: string): Promise<number> {
  const started = performance.now();
  const res = await uploadMultipart(
    `${server.url}/stt/jobs`,
    { language: OPTIONS.language, diarizationEnabled: 'false' },
    { source: media, filename: path.basename(media) },
  );
  if (res.status !== 200) throw new Error(`Upload refused: ${res.body.toString()}`);
  const { id } = res.json() as { id: string };
  for (;;) {
    const job = (await (await fetch(`${server.url}/jobs/${id}`)).json()) as { status: string; error: string | null };
    if (job.status === 'succeeded') break;
    if (['failed', 'cancelled', 'interrupted'].includes(job.status))
      throw new Error(`The bench job ${job.status}: ${job.error}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await (await fetch(`${server.url}/jobs/${id}/transcript?format=json-full`)).arrayBuffer();
  return (performance.now() - started) / 1000;
}

async function measure(label: string, model: string, media: string): Promise<Figure[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-stt-'));
  try {
    await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
    // Both sides load the model from the data directory: the engine finds VAD and diarization models beside it.
    const installed = path.join(dataDir, 'models', 'whisper', path.basename(model));
    await symlink(model, installed);
    const server = await startLocalServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      auth: false,
      log: silentLogger,
      engineWorkerPath: ENGINE_WORKER,
      preferredSttModel: path.basename(model),
    });
    try {
      await direct(installed, media, dataDir);
      await throughApi(server, media);
      const directRuns: number[] = [];
      const apiRuns: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        directRuns.push(await direct(installed, media, dataDir));
        apiRuns.push(await throughApi(server, media));
      }
      if (process.env.BENCH_VERBOSE)
        console.log(
          `overhead  runs: direct ${directRuns.map((s) => s.toFixed(2)).join(' ')}; API ${apiRuns.map((s) => s.toFixed(2)).join(' ')}`,
        );
      const [d, a] = [median(directRuns), median(apiRuns)];
      return [
        figure(
          'overhead',
          `STT ${label}: API path / runSttTask direct`,
          a / d,
          '×',
          { kind: 'max', value: 1.1 },
          `medians of ${ROUNDS}: API ${a.toFixed(2)} s, direct ${d.toFixed(2)} s`,
        ),
      ];
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runApiOverheadBench(): Promise<Figure[]> {
  const jfk = testModel('audio', 'jfk.wav');
  const figures = await measure(
    'synthetic whisper, jfk.wav (11 s)',
    testModel('whisper', 'ggml-synthetic-random.bin'),
    jfk,
  );
  const real = process.env.SPEECH_STUDIO_BENCH_MODEL;
  if (real) figures.push(...(await measure(`${path.basename(real)}, jfk.wav (11 s)`, path.resolve(real), jfk)));
  else console.log('overhead  STT with a real model: skipped (set SPEECH_STUDIO_BENCH_MODEL to a whisper ggml file)');
  return figures;
}
