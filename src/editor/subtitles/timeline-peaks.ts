/**
 * The timeline's waveform: asks the engine (a child process) for the media's peaks, which it decodes or finds
 * in its cache, then reads the small cache file and packs it for the webview. This process only ever holds
 * the peaks (two bytes a bucket), never the decoded audio. The peaks are scaled to the media's own loudest
 * sample, so a quiet recording fills the height like a loud one instead of drawing a flat line.
 */
import type { WaveformTask } from '../../engine-api/protocol';
import type { EngineHost } from '../../jobs/engine-host';
import { readWaveformFile } from '../../audio/waveform-file';

/** 100 buckets a second: a bucket is 10 ms, finer than a subtitle frame; an hour is 720 KB for the webview. */
export const TIMELINE_BUCKETS_PER_SECOND = 100;

export interface TimelinePeaks {
  bucketsPerSecond: number;
  durationSeconds: number;
  /** [min, max] per bucket, scaled so the loudest sample is ±127, as base64 of signed bytes. */
  peaks: string;
  /** The loudest sample as a fraction of full scale (0…1): what ±127 stands for. */
  peak: number;
  buckets: number;
  cached: boolean;
}

export async function timelinePeaks(
  engine: Pick<EngineHost, 'waveform'>,
  dataDir: string,
  mediaPath: string,
  signal: AbortSignal,
): Promise<TimelinePeaks> {
  const task: WaveformTask = { kind: 'waveform', mediaPath, dataDir, bucketsPerSecond: TIMELINE_BUCKETS_PER_SECOND };
  const result = await engine.waveform(task, signal);
  const peaks = await readWaveformFile(result.peaksPath);
  if (!peaks) throw new Error('the engine wrote no readable waveform');
  const { bytes, peak } = normalizedPeaks(peaks.pairs);
  return {
    bucketsPerSecond: peaks.bucketsPerSecond,
    durationSeconds: peaks.durationSeconds,
    peaks: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    peak,
    buckets: peaks.pairs.length / 2,
    cached: result.cached,
  };
}

/** 16-bit [min, max] pairs as signed bytes scaled so the loudest one is ±127 (silence stays 0). */
export function normalizedPeaks(pairs: Int16Array): { bytes: Int8Array; peak: number } {
  let loudest = 0;
  for (const value of pairs) loudest = Math.max(loudest, Math.abs(value));
  const bytes = new Int8Array(pairs.length);
  if (loudest === 0) return { bytes, peak: 0 };
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Math.max(-127, Math.min(127, Math.round((pairs[i] / loudest) * 127)));
  return { bytes, peak: Math.min(1, loudest / 32768) };
}
