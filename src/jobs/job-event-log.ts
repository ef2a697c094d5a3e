/**
 * The numbered event history of Local API jobs, for live event streams that can resume: a `job` event on
 * every status or phase change and for progress at most every 250 ms (the latest value always arrives),
 * and a `segment` event per STT segment as the engine recognizes it. Every stream of a job sees the same
 * events under the same ids, so `Last-Event-ID` resumes exactly. Ids carry this process's epoch: an id
 * from before a restart replays everything still known.
 */
import { EventEmitter } from 'node:events';
import type { RecognizedSegment } from '../engine-api/protocol';
import type { JobService } from './job-service';
import { isActive, toPublicJob, type JobRecord, type PublicJob } from './types';

export const PROGRESS_INTERVAL_MS = 250;
/** Finished jobs whose history is kept for late or resuming readers. */
const KEEP_FINISHED = 200;

export type JobEvent =
  | { id: string; seq: number; type: 'job'; job: PublicJob }
  | { id: string; seq: number; type: 'segment'; segment: RecognizedSegment };

interface JobHistory {
  segments: JobEvent[];
  latest: Extract<JobEvent, { type: 'job' }> | undefined;
  lastSentAt: number;
  pending: NodeJS.Timeout | undefined;
}

export class JobEventLog extends EventEmitter {
  readonly epoch = Date.now().toString(36);
  private seq = 0;
  private readonly histories = new Map<string, JobHistory>();
  private readonly finished: string[] = [];

  constructor(
    private readonly jobs: JobService,
    private readonly progressIntervalMs = PROGRESS_INTERVAL_MS,
  ) {
    super();
    this.setMaxListeners(0);
    jobs.on('change', (job: JobRecord) => this.onChange(job));
    jobs.on('segments', (id: string, segments: RecognizedSegment[]) => this.onSegments(id, segments));
  }

  /** The id a client echoes in Last-Event-ID. */
  eventId(seq: number): string {
    return `${this.epoch}-${seq}`;
  }

  /** The sequence number of a Last-Event-ID of this process; 0 (everything) for anything else. */
  parseEventId(header: string): number {
    const match = /^([0-9a-z]+)-(\d+)$/.exec(header.trim());
    return match && match[1] === this.epoch ? Number(match[2]) : 0;
  }

  /** The events after `afterSeq` that a reader still needs: segments in order, then the latest job state. */
  replay(id: string, afterSeq: number): JobEvent[] {
    const history = this.historyOf(id);
    if (!history) return [];
    const events = history.segments.filter((event) => event.seq > afterSeq);
    if (history.latest && history.latest.seq > afterSeq) events.push(history.latest);
    return events;
  }

  /** Calls `listener` with each new event of job `id`; returns the unsubscribe function. */
  subscribe(id: string, listener: (event: JobEvent) => void): () => void {
    const forJob = (event: JobEvent, jobId: string): void => {
      if (jobId === id) listener(event);
    };
    this.on('event', forJob);
    return () => this.off('event', forJob);
  }

  private historyOf(id: string): JobHistory | undefined {
    const existing = this.histories.get(id);
    if (existing) return existing;
    const job = this.jobs.get(id);
    if (!job || job.origin !== 'api') return undefined;
    const history: JobHistory = { segments: [], latest: undefined, lastSentAt: 0, pending: undefined };
    this.histories.set(id, history);
    history.latest = this.numbered(job);
    if (!isActive(job.status)) this.retire(id);
    return history;
  }

  private numbered(job: JobRecord): Extract<JobEvent, { type: 'job' }> {
    const seq = ++this.seq;
    return { id: this.eventId(seq), seq, type: 'job', job: toPublicJob(job) };
  }

  private onChange(job: JobRecord): void {
    if (job.origin !== 'api') return;
    const history = this.historyOf(job.id);
    if (!history) return;
    const before = history.latest?.job;
    if (before && before.status === job.status && before.phase === job.phase && before.progress === job.progress)
      return;
    const onlyProgress = before !== undefined && before.status === job.status && before.phase === job.phase;
    clearTimeout(history.pending);
    history.pending = undefined;
    const wait = history.lastSentAt + this.progressIntervalMs - Date.now();
    if (onlyProgress && wait > 0) {
      history.pending = setTimeout(() => {
        history.pending = undefined;
        const latest = this.jobs.get(job.id);
        if (latest) this.publish(latest, history);
      }, wait);
      history.pending.unref();
      return;
    }
    this.publish(job, history);
  }

  private publish(job: JobRecord, history: JobHistory): void {
    history.latest = this.numbered(job);
    history.lastSentAt = Date.now();
    this.emit('event', history.latest, job.id);
    if (!isActive(job.status)) this.retire(job.id);
  }

  private onSegments(id: string, segments: RecognizedSegment[]): void {
    const history = this.historyOf(id);
    if (!history) return;
    for (const segment of segments) {
      const seq = ++this.seq;
      const event: JobEvent = { id: this.eventId(seq), seq, type: 'segment', segment };
      history.segments.push(event);
      this.emit('event', event, id);
    }
  }

  /** A finished job's history stays for late readers; the oldest beyond the limit is forgotten. */
  private retire(id: string): void {
    if (this.finished.includes(id)) return;
    this.finished.push(id);
    while (this.finished.length > KEEP_FINISHED) {
      const old = this.finished.shift()!;
      clearTimeout(this.histories.get(old)?.pending);
      this.histories.delete(old);
    }
  }
}

const logs = new WeakMap<JobService, JobEventLog>();

/** The one event log of a job service (an app rebuilt on restart shares it). */
export function jobEventLog(jobs: JobService): JobEventLog {
  let log = logs.get(jobs);
  if (!log) {
    log = new JobEventLog(jobs);
    logs.set(jobs, log);
  }
  return log;
}
