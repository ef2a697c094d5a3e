import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { transition } from '../src/jobs/state';
import { JobStore } from '../src/jobs/store';
import type { JobRecord } from '../src/jobs/types';
import { silentLogger } from '../src/util/log';

export interface StoreFigures {
  historySize: number;
  createMs: number;
  transitionMs: number;
  /** Means include the amortized cost of folding the journal into the snapshot. */
  createMeanMs: number;
  transitionMeanMs: number;
}

const record = (id: string, status: JobRecord['status'] = 'queued'): JobRecord => ({
  id,
  name: `job ${id}`,
  kind: 'tts',
  status,
  progress: 0,
  phase: null,
  backend: null,
  result: null,
  error: null,
  createdAt: Date.now(),
  startedAt: null,
  finishedAt: null,
  origin: 'api',
  outputFile: null,
  input: {
    kind: 'tts',
    characters: 40,
    options: {
      voiceId: '59ecd22d-96db-56b8-a0f4-62d14ba28a8b',
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
});

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values: number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

/** Median cost of creating a job and of one state transition, with `historySize` finished jobs in the store. */
export async function measureStore(historySize: number, samples = 600): Promise<StoreFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-store-'));
  try {
    const file = path.join(dir, 'jobs.json');
    const seed = await JobStore.open(file, silentLogger);
    for (let i = 0; i < historySize; i++) await seed.insert(record(`h${i}`, 'succeeded'));
    await seed.flush();
    const store = await JobStore.open(file, silentLogger);
    const creates: number[] = [];
    const moves: number[] = [];
    for (let i = 0; i < samples; i++) {
      const id = `n${i}`;
      let start = performance.now();
      await store.insert(record(id));
      creates.push(performance.now() - start);
      start = performance.now();
      await store.update(id, (job) => transition(job, 'loading_model'));
      moves.push(performance.now() - start);
    }
    await store.flush();
    return {
      historySize,
      createMs: median(creates),
      transitionMs: median(moves),
      createMeanMs: mean(creates),
      transitionMeanMs: mean(moves),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
