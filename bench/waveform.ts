/**
 * Waveform peaks for the subtitle timeline, on one hour of audio (a generated minute of varying tone,
 * repeated to an hour of MP3 with ffmpeg, in a temporary folder): the time the engine process takes to
 * decode it into 100 buckets a second, the same again from the cache, the engine's peak memory, and how much
 * this process (standing in for the extension host, through the same code the timeline calls) grows: it only
 * ever receives the peaks, never the decoded audio (57.6 MB even at the 8 kHz the peaks are decoded at).
 * Targets: ≤ 30 s cold, ≤ 250 ms cached, engine ≤ 200 MB, this process grows by ≤ 25 MB.
 */
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PEAKS_SAMPLE_RATE } from '../src/engine/media/waveform-peaks';
import { EngineHost } from '../src/jobs/engine-host';
import { silentLogger } from '../src/util/log';
import { timelinePeaks } from '../src/editor/subtitles/timeline-peaks';
import { tempDir } from '../test/helpers/temp';
import { figure, rssMb, sampleRss, type Figure } from './report';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';

const HOUR = 3600;

async function hourOfAudio(dir: string): Promise<string> {
  const minute = path.join(dir, 'minute.mp3');
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=60:sample_rate=22050',
    '-af',
    "volume='0.2+0.7*abs(sin(t*1.3))':eval=frame",
    '-ac',
    '1',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '48k',
    minute,
  ]);
  const list = path.join(dir, 'list.txt');
  await writeFile(list, `file '${minute}'\n`.repeat(HOUR / 60));
  const hour = path.join(dir, 'hour.mp3');
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c',
    'copy',
    hour,
  ]);
  return hour;
}

export async function runWaveformBench(): Promise<Figure[]> {
  const dir = await tempDir('speech-bench-waveform-');
  const engine = new EngineHost({
    workerPath: path.join(__dirname, '..', 'dist', 'engine-worker.js'),
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  try {
    const media = await hourOfAudio(dir);
    const dataDir = path.join(dir, 'data');
    const signal = new AbortController().signal;
    global.gc?.();
    const before = rssMb(process.pid) ?? process.memoryUsage().rss / 2 ** 20;
    const self = sampleRss(() => process.pid);
    const engineRss = sampleRss(() => engine.pids[0]);
    let started = performance.now();
    const cold = await timelinePeaks(engine, dataDir, media, signal);
    const coldSeconds = (performance.now() - started) / 1000;
    const enginePeak = engineRss.stop();
    const selfPeak = self.stop() ?? before;
    started = performance.now();
    const warm = await timelinePeaks(engine, dataDir, media, signal);
    const warmMs = performance.now() - started;
    if (cold.cached || !warm.cached) throw new Error('the first run should decode and the second come from the cache');
    const decodedMb = (cold.durationSeconds * PEAKS_SAMPLE_RATE * 2) / 2 ** 20;
    return [
      figure(
        'waveform',
        'peaks of 1 h of MP3 in the engine (decode + 100 buckets/s)',
        coldSeconds,
        's',
        { kind: 'max', value: 30 },
        `${cold.buckets} buckets, ${(cold.durationSeconds / 60).toFixed(1)} min, ${os.availableParallelism()} cores`,
      ),
      figure('waveform', 'the same peaks from the cache', warmMs, 'ms', { kind: 'max', value: 250 }),
      figure(
        'waveform',
        'engine process peak RSS while decoding',
        enginePeak ?? 0,
        'MB',
        { kind: 'max', value: 200 },
        'sampled every 25 ms from /proc',
      ),
      figure(
        'waveform',
        'caller (extension host) growth while asking',
        selfPeak - before,
        'MB',
        { kind: 'max', value: 25 },
        `the decoded audio would be ${decodedMb.toFixed(1)} MB at ${PEAKS_SAMPLE_RATE} Hz; the caller receives ${(cold.peaks.length / 2 ** 20).toFixed(2)} MB of peaks (base64)`,
      ),
    ];
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}
