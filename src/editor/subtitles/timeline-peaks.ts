/**
 * The timeline's waveform: asks the engine (a child process) for the media's peaks, which it decodes or finds
 * in its cache, then reads the small cache file and packs it for the webview. This process only ever holds
 * the peaks (two bytes a bucket), never the decoded audio.
 */
import type { WaveformTask } from '../../engine/protocol';
import type { EngineHost } from '../../jobs/engine-host';
import { readWaveformFile } from '../../engine/media/waveform-file';

/** 100 buckets a second: a bucket is 10 ms, finer than a subtitle frame; an hour is 720 KB for the webview. */
export const TIMELINE_BUCKETS_PER_SECOND = 100;

export interface TimelinePeaks {
  bucketsPerSecond: number;
  durationSeconds: number;
  /** [min, max] per bucket, scaled to −127…127, as base64 of signed bytes. */
  peaks: string;
  buckets: number;
  cached: boolean;
}

export async function timelinePeaks(engine: Pick<EngineHost, 'waveform'>, dataDir: string, mediaPath: string, signal: AbortSignal): Promise<TimelinePeaks> {
  const task: WaveformTask = { kind: 'waveform', mediaPath, dataDir, bucketsPerSecond: TIMELINE_BUCKETS_PER_SECOND };
  const result = await engine.waveform(task, signal);
  const peaks = await readWaveformFile(result.peaksPath);
  if (!peaks) throw new Error('the engine wrote no readable waveform');
  const bytes = new Int8Array(peaks.pairs.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.round((peaks.pairs[i] / 32768) * 127);
  return {
    bucketsPerSecond: peaks.bucketsPerSecond,
    durationSeconds: peaks.durationSeconds,
    peaks: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    buckets: peaks.pairs.length / 2,
    cached: result.cached,
  };
}
