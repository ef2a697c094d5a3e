/**
 * TTS benchmark figures:
 *   - real-time factor of the whole Local API path (POST /tts/jobs → engine process → succeeded) for a
 *     2 000-character text, against espeak-ng called directly in this process on the same text: the ratio
 *     is what the API, the engine process, normalization, post-processing and WAV writing cost (target ≤ 1.15);
 *   - peak RSS of the engine process during a 100 000-character job (target: under 300 MB).
 * Time to first byte is not measured: jobs are asynchronous, the output exists only once they finish.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { concatSamples } from '../src/engine/audio/samples';
import { espeakRateForSpeed, openEspeakVoice } from '../src/engine/tts/synthesizers/espeak';
import { splitIntoChunks } from '../src/engine/tts/text-chunks';
import { startLocalServer, type LocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { voiceIdFor } from '../src/voices/voice-id';

export interface TtsBenchFigures {
  /** The machine's 1-minute load average before the run: other work on the cores skews both sides. */
  loadAverage: number;
  characters: number;
  audioSeconds: number;
  directRtf: number;
  apiRtf: number;
  ratio: number;
  ratioTarget: number;
  /**
   * CPU seconds per audio second: the engine process (both its threads) against espeak-ng alone. Unlike
   * the wall-clock ratio it does not depend on what else the machine runs, and it shows the extra work
   * (resampling, denoise, loudness) that the audio thread does beside the synthesis.
   */
  cpu: { directPerAudioSecond: number; enginePerAudioSecond: number | null; ratio: number | null };
  longJob: {
    characters: number;
    audioSeconds: number;
    seconds: number;
    engineRssPeakMb: number | null;
    rssTargetMb: number;
  };
}

export const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const VOICE = voiceIdFor('espeak-ng', 'gmw/en-US');

/** Plain English sentences, the same on every run. */
export function sampleText(characters: number): string {
  const words = [
    'river',
    'mountain',
    'quietly',
    'yellow',
    'window',
    'seven',
    'garden',
    'across',
    'morning',
    'paper',
    'the',
    'a',
    'walks',
    'under',
    'bright',
    'old',
    'friend',
    'reads',
    'slowly',
    'house',
  ];
  let seed = 42;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % words.length;
  };
  const sentences: string[] = [];
  for (let length = 0; length < characters;) {
    const sentence = Array.from({ length: 6 + (next() % 8) }, next)
      .map((i) => words[i])
      .join(' ');
    sentences.push(`${sentence[0].toUpperCase()}${sentence.slice(1)}.`);
    length += sentence.length + 2;
  }
  return sentences.join(' ').slice(0, characters);
}

/** CPU seconds a process has used so far (Linux: /proc/<pid>/stat), or null where /proc is not available. */
export function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in ticks of 1/100 s
  } catch {
    return null;
  }
}

/** Peak resident memory of a process in MB (Linux: VmHWM), or null where /proc is not available. */
function peakRssMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export async function direct(text: string): Promise<{ seconds: number; cpuSeconds: number; audioSeconds: number }> {
  const voice = await openEspeakVoice('gmw/en-US', espeakRateForSpeed(1));
  voice.synthesize('Warm up.');
  const started = performance.now();
  const cpu = process.cpuUsage();
  let samples = 0;
  for (const chunk of splitIntoChunks(text)) samples += concatSamples(voice.synthesize(chunk)).length;
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    audioSeconds: samples / voice.sampleRate,
  };
}

export async function apiJob(
  server: LocalServer,
  text: string,
  onPoll?: () => void,
  options: Record<string, unknown> = {},
): Promise<{ seconds: number; audioSeconds: number }> {
  const started = performance.now();
  const created = await fetch(`${server.url}/tts/jobs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ voiceId: VOICE, text, ...options }),
  });
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    const job = (await (await fetch(`${server.url}/jobs/${id}`)).json()) as {
      status: string;
      error: string | null;
      result: { durationSeconds: number };
    };
    onPoll?.();
    if (job.status === 'succeeded')
      return { seconds: (performance.now() - started) / 1000, audioSeconds: job.result.durationSeconds };
    if (['failed', 'cancelled', 'interrupted'].includes(job.status))
      throw new Error(`The bench job ${job.status}: ${job.error}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function measureTts(rounds = 5): Promise<TtsBenchFigures> {
  const loadAverage = os.loadavg()[0];
  const text = sampleText(2000);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-tts-'));
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    auth: false,
    log: silentLogger,
    engineWorkerPath: ENGINE_WORKER,
  });
  try {
    await apiJob(server, 'Warm up the engine process.');
    const directRuns: number[] = [];
    const apiRuns: number[] = [];
    const directCpu: number[] = [];
    const engineCpu: number[] = [];
    let audioSeconds = 0;
    for (let round = 0; round < rounds; round++) {
      const d = await direct(text);
      directRuns.push(d.seconds / d.audioSeconds);
      directCpu.push(d.cpuSeconds / d.audioSeconds);
      const pid = server.engine.pids[0];
      const cpuBefore = pid === undefined ? null : cpuSeconds(pid);
      const a = await apiJob(server, text);
      const cpuAfter = pid === undefined ? null : cpuSeconds(pid);
      if (cpuBefore !== null && cpuAfter !== null) engineCpu.push((cpuAfter - cpuBefore) / a.audioSeconds);
      apiRuns.push(a.seconds / a.audioSeconds);
      audioSeconds = a.audioSeconds;
    }
    const long = sampleText(100_000);
    let engineRssPeakMb: number | null = null;
    const watch = (): void => {
      for (const pid of server.engine.pids) {
        const rss = peakRssMb(pid);
        if (rss !== null) engineRssPeakMb = Math.max(engineRssPeakMb ?? 0, rss);
      }
    };
    const longRun = await apiJob(server, long, watch);
    const directRtf = median(directRuns);
    const apiRtf = median(apiRuns);
    const directPerAudioSecond = median(directCpu);
    const enginePerAudioSecond = engineCpu.length > 0 ? median(engineCpu) : null;
    return {
      loadAverage,
      characters: text.length,
      audioSeconds,
      directRtf,
      apiRtf,
      ratio: apiRtf / directRtf,
      ratioTarget: 1.15,
      cpu: {
        directPerAudioSecond,
        enginePerAudioSecond,
        ratio: enginePerAudioSecond === null ? null : enginePerAudioSecond / directPerAudioSecond,
      },
      longJob: {
        characters: long.length,
        audioSeconds: longRun.audioSeconds,
        seconds: longRun.seconds,
        engineRssPeakMb,
        rssTargetMb: 300,
      },
    };
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Runs the TTS figures and prints one line each, with the target beside it. */
export async function runTtsBench(): Promise<TtsBenchFigures> {
  const f = await measureTts();
  const ok = (pass: boolean): string => (pass ? 'ok' : 'OVER TARGET');
  const cores = os.availableParallelism();
  if (f.loadAverage > cores / 2)
    console.log(
      `tts  note: load average ${f.loadAverage.toFixed(1)} on ${cores} cores; the timings are not those of an idle machine`,
    );
  console.log(
    `tts  RTF ${f.characters} chars (${f.audioSeconds.toFixed(1)} s audio): API ${f.apiRtf.toFixed(4)}, espeak-ng direct ${f.directRtf.toFixed(4)}, ` +
      `ratio ${f.ratio.toFixed(3)} (target ≤ ${f.ratioTarget}) ${ok(f.ratio <= f.ratioTarget)}`,
  );
  if (f.cpu.ratio !== null) {
    console.log(
      `tts  CPU per audio second: engine process ${f.cpu.enginePerAudioSecond!.toFixed(4)}, espeak-ng direct ` +
        `${f.cpu.directPerAudioSecond.toFixed(4)}, ratio ${f.cpu.ratio.toFixed(2)} (work done; the audio thread runs it beside synthesis)`,
    );
  }
  const rss = f.longJob.engineRssPeakMb;
  console.log(
    `tts  ${f.longJob.characters} chars: ${f.longJob.audioSeconds.toFixed(0)} s audio in ${f.longJob.seconds.toFixed(1)} s, ` +
      `engine RSS peak ${rss === null ? 'n/a' : `${rss.toFixed(0)} MB`} (target < ${f.longJob.rssTargetMb} MB) ${rss === null ? '' : ok(rss < f.longJob.rssTargetMb)}`,
  );
  return f;
}
