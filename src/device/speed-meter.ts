/**
 * Measures this device's real-time factor per engine and model from the jobs it finishes: a rolling
 * median of the recent ones, so one odd job (a cold model, a busy moment) does not swing the routing.
 */
import type { JobResult } from '../contract/types';
import type { SttResult } from '../contract/types';
import type { JobService } from '../jobs/job-service';
import { jobKindOf } from '../jobs/kinds';
import { isLocalOnlyKind, type JobRecord } from '../jobs/types';
import type { SpeedReport } from '../link/speeds';

/** Recent jobs per engine and model the median is taken over. */
export const SPEED_WINDOW = 9;

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

type Key = Pick<SpeedReport, 'kind' | 'engine' | 'model'>;

/**
 * What a succeeded job says about speed: processing time (from leaving the queue to finishing) over the
 * audio's duration, the output's for TTS and the input's for STT. Undefined when it says nothing.
 */
export function measurementOf(job: JobRecord): (Key & { realTimeFactor: number }) | undefined {
  if (
    job.status !== 'succeeded' ||
    job.startedAt === null ||
    job.finishedAt === null ||
    !job.result ||
    isLocalOnlyKind(job.kind)
  )
    return undefined;
  const seconds = (job.result as JobResult).durationSeconds;
  const busyMs = job.finishedAt - job.startedAt;
  if (!(seconds > 0.05) || !(busyMs > 0)) return undefined;
  const realTimeFactor = busyMs / 1000 / seconds;
  if (job.kind === 'tts' && job.input.kind === 'tts') {
    // Streamed speech is paced by its reader, not by the engine.
    if (job.result.live) return undefined;
    return {
      kind: 'tts',
      engine: job.result.voice.engine,
      model: job.input.options.voiceId.toLowerCase(),
      realTimeFactor,
    };
  }
  // An alignment is measured as the seed's STT job it is shown as (its model names the aligner).
  if (jobKindOf(job.kind).seedKind === 'stt')
    return { kind: 'stt', engine: 'whisper', model: (job.result as SttResult).model, realTimeFactor };
  return undefined;
}

export class SpeedMeter {
  private readonly windows = new Map<string, { key: Key; factors: number[] }>();
  private readonly listeners = new Set<() => void>();
  private readonly ignored = new Set<string>();
  /** Jobs already counted, lest a repeated `change` of a finished job count twice (the newest few suffice). */
  private readonly counted: string[] = [];
  private readonly onChange = (job: JobRecord): void => this.record(job);

  constructor(private readonly jobs: Pick<JobService, 'on' | 'off'>) {
    jobs.on('change', this.onChange);
  }

  /** Called after each new measurement. */
  onMeasured(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Leaves this job out (a warm-up run). */
  ignore(jobId: string): void {
    this.ignored.add(jobId);
  }

  record(job: JobRecord): void {
    if (this.ignored.has(job.id)) {
      if (job.status !== 'queued' && job.status !== 'loading_model' && job.status !== 'processing')
        this.ignored.delete(job.id);
      return;
    }
    const measured = measurementOf(job);
    if (!measured || this.counted.includes(job.id)) return;
    this.counted.push(job.id);
    if (this.counted.length > 64) this.counted.shift();
    const { realTimeFactor, ...key } = measured;
    const id = `${key.kind}\u0000${key.engine}\u0000${key.model}`;
    const window = this.windows.get(id) ?? { key, factors: [] };
    window.factors.push(realTimeFactor);
    if (window.factors.length > SPEED_WINDOW) window.factors.shift();
    this.windows.set(id, window);
    for (const listener of [...this.listeners]) listener();
  }

  /** The current figures, one per engine and model measured. */
  reports(): SpeedReport[] {
    return [...this.windows.values()].map(({ key, factors }) => ({
      ...key,
      realTimeFactor: Number(median(factors).toPrecision(4)),
      samples: factors.length,
    }));
  }

  dispose(): void {
    this.jobs.off('change', this.onChange);
    this.listeners.clear();
  }
}
