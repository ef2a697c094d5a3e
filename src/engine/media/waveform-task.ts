/**
 * The engine's waveform task: the peaks of a media file for the editor's timeline, from the cache when this
 * version of the file (path, size, modification time) was seen before, else decoded here and cached.
 */
import { utimes } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import {
  UserFacingError,
  type ProgressReporter,
  type TaskOutcome,
  type WaveformResult,
  type WaveformTask,
} from '../../engine-api/protocol';
import { findMediaTools } from './ffmpeg';
import { probeMedia } from './probe-media';
import { mediaVersion, readWaveformFile, waveformCachePath, writeWaveformFile } from '../../audio/waveform-file';
import { computeWaveformPeaks, PEAKS_SAMPLE_RATE } from './waveform-peaks';

export const WAVEFORM_BACKEND = 'ffmpeg';

/** The task as it may run, or a sentence saying why not (a message from a confused parent, never a crash). */
export function checkWaveformTask(task: Record<string, unknown>): WaveformTask {
  const { mediaPath, dataDir, bucketsPerSecond } = task;
  if (typeof mediaPath !== 'string' || !isAbsolute(mediaPath))
    throw new UserFacingError('The waveform needs the absolute path of the media file.');
  if (typeof dataDir !== 'string' || !isAbsolute(dataDir))
    throw new UserFacingError('The waveform needs the absolute path of the data directory.');
  if (
    typeof bucketsPerSecond !== 'number' ||
    !Number.isInteger(bucketsPerSecond) ||
    bucketsPerSecond < 1 ||
    bucketsPerSecond > 1000 ||
    PEAKS_SAMPLE_RATE % bucketsPerSecond !== 0
  ) {
    throw new UserFacingError(
      `The waveform's buckets per second must divide ${PEAKS_SAMPLE_RATE} and be at most 1000, got ${String(bucketsPerSecond)}.`,
    );
  }
  return { kind: 'waveform', mediaPath, dataDir, bucketsPerSecond };
}

const maxRssBytes = (): number => process.resourceUsage().maxRSS * 1024;

/**
 * The buckets drawn by waveform tasks that yielded, by their cache file (which names the media's version): the
 * task run again in this process continues from there instead of from the start. A few at most (a timeline
 * asks for one file at a time); the oldest is forgotten first.
 */
const stoppedPeaks = new Map<string, Int16Array>();
const STOPPED_KEPT = 4;

function keepStopped(peaksPath: string, completed: Int16Array): void {
  stoppedPeaks.delete(peaksPath);
  stoppedPeaks.set(peaksPath, completed);
  for (const oldest of stoppedPeaks.keys()) {
    if (stoppedPeaks.size <= STOPPED_KEPT) break;
    stoppedPeaks.delete(oldest);
  }
}

/**
 * Runs the task; when `yieldSignal` aborts it stops early with TaskYieldedError, keeping the buckets drawn so far
 * in this process, so that the task run again here continues where it stopped.
 */
export async function runWaveformTask(
  task: WaveformTask,
  report: ProgressReporter,
  yieldSignal?: AbortSignal,
): Promise<TaskOutcome<WaveformResult>> {
  const version = await mediaVersion(task.mediaPath).catch(() => {
    throw new UserFacingError(`The media file ${task.mediaPath} cannot be read.`);
  });
  const peaksPath = waveformCachePath(task.dataDir, version, task.bucketsPerSecond);
  const outcome = (
    peaks: { pairs: Int16Array; durationSeconds: number },
    cached: boolean,
  ): TaskOutcome<WaveformResult> => ({
    backend: WAVEFORM_BACKEND,
    result: {
      peaksPath,
      buckets: peaks.pairs.length / 2,
      bucketsPerSecond: task.bucketsPerSecond,
      durationSeconds: peaks.durationSeconds,
      cached,
      engineMaxRssBytes: maxRssBytes(),
    },
  });
  const cached = await readWaveformFile(peaksPath);
  if (cached && cached.bucketsPerSecond === task.bucketsPerSecond) {
    // Its use recorded, so the cache's pruning keeps what is in use (src/util/prune-cache.ts).
    await utimes(peaksPath, new Date(), new Date()).catch(() => undefined);
    return outcome(cached, true);
  }
  const tools = findMediaTools();
  const probe = await probeMedia(task.mediaPath, tools, yieldSignal);
  if (!probe.hasAudio) throw new UserFacingError('The media file has no audio to draw.');
  const resume = stoppedPeaks.get(peaksPath);
  stoppedPeaks.delete(peaksPath);
  const peaks = await computeWaveformPeaks(task.mediaPath, tools, {
    bucketsPerSecond: task.bucketsPerSecond,
    expectedSeconds: probe.durationSeconds ?? undefined,
    onProgress: (fraction) => report('decoding', Math.round(fraction * 100)),
    yieldSignal,
    onStopped: (completed) => keepStopped(peaksPath, completed),
    resume,
  });
  await writeWaveformFile(peaksPath, peaks);
  return outcome(peaks, false);
}
