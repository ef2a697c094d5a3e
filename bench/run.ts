/**
 * `npm run bench`: runs each benchmark module in turn, each printing its figures with their targets, and
 * writes everything as JSON to bench/results/bench-<date>.json (git-ignored), with the machine it ran on.
 * `npm run bench -- polling memory` runs only the modules named.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';
import { configureEngine } from '../src/engine-api/engine-config';
import { runApiOverheadBench } from './api-overhead';
import { runMemoryBench } from './memory';
import { runPollingBench } from './polling';
import { machine } from './report';
import { runStoreGrowthBench } from './store-growth';
import { runTtsBench } from './tts';

/** The bench modules, in the order they run: add one line to add a module. */
const BENCHES: ReadonlyArray<{ name: string; run: () => Promise<unknown> }> = [
  { name: 'store', run: () => runStoreGrowthBench() },
  { name: 'polling', run: () => runPollingBench() },
  { name: 'overhead', run: () => runApiOverheadBench() },
  { name: 'memory', run: () => runMemoryBench() },
  { name: 'tts', run: () => runTtsBench() },
  { name: 'resampler', run: () => import('./resampler').then((m) => m.runResamplerBench()) },
  { name: 'chain', run: () => import('./tts-chain').then((m) => m.runTtsChainBench()) },
  { name: 'relay', run: () => import('./relay').then((m) => m.runRelayBench()) },
  { name: 'audiobook', run: () => import('./audiobook').then((m) => m.runAudiobookBench()) },
  { name: 'epub', run: () => import('./read-along').then((m) => m.runReadAlongBench()) },
  { name: 'stt', run: () => import('./stt').then((m) => m.runSttBench()) },
  { name: 'timing', run: () => import('./timing').then((m) => m.runTimingBench()) },
  { name: 'subtitles', run: () => import('./subtitles').then((m) => m.runSubtitlesBench()) },
  { name: 'waveform', run: () => import('./waveform').then((m) => m.runWaveformBench()) },
  { name: 'openai', run: () => import('./openai').then((m) => m.runOpenAiBench()) },
  { name: 'ffmpeg', run: () => import('./ffmpeg').then((m) => m.runFfmpegBench()) },
  { name: 'readaloud', run: () => import('./read-aloud').then((m) => m.runReadAloudBench()) },
  { name: 'proof', run: () => import('./proof-listen').then((m) => m.runProofListenBench()) },
  { name: 'health', run: () => import('./health').then((m) => m.runHealthBench()) },
  { name: 'cancel', run: () => import('./cancel').then((m) => m.runCancelBench()) },
  { name: 'realtime', run: () => import('./realtime').then((m) => m.runRealtimeBench()) },
  { name: 'align', run: () => import('./align').then((m) => m.runAlignBench()) },
  { name: 'llm', run: () => import('./llm').then((m) => m.runLlmBench()) },
  { name: 'dub', run: () => import('./dub').then((m) => m.runDubBench()) },
  { name: 'diarization', run: () => import('./diarization').then((m) => m.runDiarizationBench()) },
  { name: 'queue', run: () => import('./queue').then((m) => m.runQueueBench()) },
  { name: 'captions', run: () => import('./captions').then((m) => m.runCaptionsBench()) },
  { name: 'warm', run: () => import('./warm-start').then((m) => m.runWarmStartBench()) },
];

async function main(): Promise<void> {
  // Some benches run engine code in this process: configured from the environment, as the host's engine processes are.
  configureEngine(engineConfigFromEnvironment());
  const only = process.argv.slice(2);
  const unknown = only.filter((name) => !BENCHES.some((b) => b.name === name));
  if (unknown.length > 0)
    throw new Error(`Unknown bench ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
  const about = machine();
  console.log(
    `machine: ${String(about.cpu)}, ${String(about.cores)} cores, ${String(about.memoryGb)} GB, ${String(about.os)}, Node ${String(about.node)}, load ${os.loadavg()[0].toFixed(2)}`,
  );
  const results: Record<string, unknown> = {};
  for (const bench of BENCHES) {
    if (only.length > 0 && !only.includes(bench.name)) continue;
    const started = performance.now();
    results[bench.name] = await bench.run();
    console.log(`${bench.name.padEnd(9)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const dir = path.join(__dirname, 'results');
  await mkdir(dir, { recursive: true });
  const date = new Date().toISOString();
  const file = path.join(dir, `bench-${date.replace(/[:.]/g, '-')}.json`);
  await writeFile(
    file,
    `${JSON.stringify({ date, machine: { ...about, loadAverageAfter: os.loadavg()[0] }, results }, null, 2)}\n`,
  );
  console.log(`results: ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
