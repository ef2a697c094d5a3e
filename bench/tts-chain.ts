/**
 * What the default audio chain of a TTS job costs (`npm run bench -- chain`): the engine process's CPU
 * (both its threads, from /proc) for a job with the contract's defaults and for the same job with every
 * optional step off, each against espeak-ng's own CPU for the same text in this process, in paired rounds
 * (espeak-ng, then the job, then the next pair), so load that comes and goes hits both sides of a pair.
 * Target (issue #44): the default job ≤ 1.15× bare espeak-ng, for 2 000 and for 20 000 characters.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLocalServer, type LocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { figure, median, type Figure } from './report';
import { apiJob, cpuSeconds, direct, ENGINE_WORKER, sampleText } from './tts';

/** Every optional step of the contract off; the output rate stays the default 24 000 Hz. */
const OPTIONS_OFF = { denoise: false, postprocessOutput: false, trimSilence: false, preprocessPrompt: false };

interface Pair {
  direct: number;
  job: number;
}

/** CPU seconds of espeak-ng alone and of the engine process for the same text, `rounds` pairs. */
async function pairs(server: LocalServer, text: string, rounds: number, options: object): Promise<Pair[]> {
  const result: Pair[] = [];
  for (let round = 0; round < rounds; round++) {
    const bare = await direct(text);
    const pid = server.engine.pids[0];
    const before = pid === undefined ? null : cpuSeconds(pid);
    await apiJob(server, text, undefined, { ...options });
    const after = pid === undefined ? null : cpuSeconds(pid);
    if (before === null || after === null || server.engine.pids[0] !== pid)
      throw new Error('The engine process CPU could not be read from /proc (Linux only).');
    result.push({ direct: bare.cpuSeconds, job: after - before });
  }
  return result;
}

export async function runTtsChainBench(): Promise<Figure[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-chain-'));
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    auth: false,
    log: silentLogger,
    engineWorkerPath: ENGINE_WORKER,
  });
  const figures: Figure[] = [];
  try {
    await apiJob(server, 'Warm up the engine process and its audio thread.');
    for (const [characters, rounds] of [
      [2000, 7],
      [20_000, 3],
    ] as const) {
      const text = sampleText(characters);
      await apiJob(server, text);
      const load = os.loadavg()[0];
      const defaults = await pairs(server, text, rounds, {});
      const off = await pairs(server, text, rounds, OPTIONS_OFF);
      const ratio = (list: Pair[]): number => median(list.map((pair) => pair.job / pair.direct));
      const detail = (list: Pair[]): string =>
        `median of ${rounds} pairs: job ${median(list.map((p) => p.job)).toFixed(2)} s, espeak-ng ${median(list.map((p) => p.direct)).toFixed(2)} s CPU; load ${load.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
      figures.push(
        figure(
          'chain',
          `${characters} chars, contract defaults: engine CPU / bare espeak-ng`,
          ratio(defaults),
          '×',
          { kind: 'max', value: 1.15 },
          detail(defaults),
        ),
        figure(
          'chain',
          `${characters} chars, every optional step off: engine CPU / bare espeak-ng`,
          ratio(off),
          '×',
          undefined,
          detail(off),
        ),
      );
    }
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return figures;
}
