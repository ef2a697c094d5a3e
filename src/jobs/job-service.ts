import { randomUUID } from 'node:crypto';
import { monotonicNow } from '../util/monotonic-clock';
import { EventEmitter } from 'node:events';
import { ApiError } from '../contract/errors';
import type { LexiconEntry } from '../contract/types';
import { taskBackend, type EnginePhase, type RecognizedSegment } from '../engine-api/protocol';
import { readLexicon } from '../lexicon/lexicon-file';
import { mergeLexicons } from '../lexicon/merge-lexicon';
import { describeThrown, type Logger } from '../util/log';
import { EngineCancelledError, type EngineHost } from './engine-host';
import { JobFiles } from './job-files';
import { alignKind, type NewAlignJob } from './kinds/align';
import type { JobKindModule, KindRecord, NewJob } from './kinds/job-kind';
import { sttKind, type NewSttJob } from './kinds/stt';
import { ttsKind, type NewTtsJob } from './kinds/tts';
import { canTransition, transition, type TransitionDetails } from './state';
import type { JobStore } from './store';
import { isActive, RUNNING_STATUSES, type JobOrigin, type JobRecord, type JobStatus, type RecordKind } from './types';

export interface JobServiceOptions {
  dataDir: string;
  store: JobStore;
  engine: EngineHost;
  log: Logger;
  /** Local API jobs waiting or running at most (decisions: 32). */
  capacity: number;
  /** Finished jobs kept; the oldest beyond this are pruned with their files. */
  maxFinishedJobs: number;
}

/** Seconds a client is asked to wait before it tries a full queue again. */
export const QUEUE_RETRY_AFTER_SECONDS = 5;

/** A registry error: every door answers it as QUEUE_FULL (429) with Retry-After, in its own wire shape. */
export class QueueFullError extends ApiError {
  constructor(readonly capacity: number) {
    super(
      'QUEUE_FULL',
      `The queue is full: ${capacity} Local API jobs are already waiting or running. Try again when one finishes.`,
      {
        headers: { 'Retry-After': String(QUEUE_RETRY_AFTER_SECONDS) },
      },
    );
    this.name = 'QueueFullError';
  }
}

/** A registry error: JOB_NOT_ACTIVE (422) for a cancel of a job that has already finished. */
export class JobNotActiveError extends ApiError {
  constructor(readonly job: JobRecord) {
    super(
      'JOB_NOT_ACTIVE',
      `The job has already finished (${job.status}); only queued or running jobs can be cancelled.`,
    );
    this.name = 'JobNotActiveError';
  }
}

/** A place in the queue, held while a request is still being received (an upload), so capacity is exact. */
export interface Reservation {
  release(): void;
}

export type { NewTtsJob } from './kinds/tts';
export type { NewSttJob, ReceivedSttJob } from './kinds/stt';
export type { NewAlignJob, ReceivedAlignJob } from './kinds/align';
export type { NewBookJob } from './kinds/book';
export type { NewTranslateJob } from './kinds/translate';
export type { NewDubJob } from './kinds/dub';

/**
 * Phases in which the engine is still getting ready (reading the input, loading the model): the job stays
 * `loading_model` through them, for TTS and STT alike, and is `processing` from the first phase after.
 */
const PREPARING_PHASES: ReadonlySet<EnginePhase> = new Set(['decoding', 'loading_model']);

/** A job handed to the engine scheduler: waiting there for a slot of the job lane (still `queued`), or started. */
interface RunningJob {
  controller: AbortController;
  done: Promise<void>;
  /** The scheduler gave it a slot: it is leaving `queued` (shutdown interrupts it rather than keeping it queued). */
  started: boolean;
}

/**
 * Creates, queues, runs, cancels and prunes jobs; emits `change` with the record after every visible change,
 * and `segments` (id, RecognizedSegment[]) as an STT job's engine recognizes them.
 *
 * The service keeps no queue of its own: every runnable job goes to the engine scheduler at once, oldest first,
 * and waits there, `queued`, for a slot of the job lane, whose size (the engine configuration's J) is the one
 * cap on jobs running at once. A job becomes `loading_model` when the scheduler starts it.
 */
export class JobService extends EventEmitter {
  readonly files: JobFiles;
  private readonly running = new Map<string, RunningJob>();
  private readonly activeApiJobs = new Set<string>();
  private reservations = 0;
  private stopping = false;

  constructor(private readonly options: JobServiceOptions) {
    super();
    // Every open event stream and streamed answer listens for its job's changes.
    this.setMaxListeners(0);
    this.files = new JobFiles(options.dataDir);
  }

  /** After a restart: jobs that were running are interrupted; queued jobs run again, oldest first. */
  async recover(): Promise<void> {
    const jobs = this.options.store.all().sort((a, b) => a.createdAt - b.createdAt);
    for (const job of jobs) {
      if (RUNNING_STATUSES.has(job.status)) {
        await this.move(job.id, 'interrupted', {
          error: 'The job was interrupted because Speech Studio stopped while it ran.',
        });
      } else if (job.status === 'queued') {
        if (job.origin === 'api') this.activeApiJobs.add(job.id);
        this.dispatch(job.id);
      }
    }
  }

  get(id: string): JobRecord | undefined {
    return this.options.store.get(id);
  }

  list(): JobRecord[] {
    return this.options.store.all();
  }

  newJobId(): string {
    return randomUUID();
  }

  /** Holds a place for a Local API job, or throws QueueFullError. Editor and remote jobs are not limited here. */
  reserve(origin: JobOrigin): Reservation {
    if (origin !== 'api') return { release: () => undefined };
    if (this.activeApiJobs.size + this.reservations >= this.options.capacity) {
      throw new QueueFullError(this.options.capacity);
    }
    this.reservations++;
    let held = true;
    return {
      release: () => {
        if (held) this.reservations--;
        held = false;
      },
    };
  }

  /**
   * Queues an admitted job of any kind (src/jobs/kinds/): takes a place in the queue unless the caller holds
   * one (QueueFullError for a Local API job), makes the job's folder, lets the kind write its input there,
   * then stores the record and queues it. Whatever fails, the place is released and the folder removed.
   */
  async create<K extends RecordKind, I extends { kind: K }, R, N extends NewJob>(
    kind: JobKindModule<K, I, R, N>,
    admitted: N,
    reservation?: Reservation,
  ): Promise<JobRecord> {
    const place = reservation ?? this.reserve(admitted.origin);
    const id = this.newJobId();
    try {
      const dir = await this.files.create(id);
      const made = await kind.input(admitted, {
        id,
        dir,
        file: (name) => this.files.file(id, name),
        dataDir: this.options.dataDir,
        lexiconWith: (over) => this.lexiconWith(over),
      });
      const record = this.newRecord(
        id,
        admitted.origin,
        made.name,
        made.input,
        made.remoteKeyName ?? admitted.remoteKeyName,
      );
      return await this.enqueue(record, place);
    } catch (error) {
      place.release();
      await this.files.remove(id);
      throw error;
    }
  }

  /** Queues an admitted TTS job (see admission.ts); without a reservation it takes a place itself. */
  createTtsJob(job: NewTtsJob, reservation?: Reservation): Promise<JobRecord> {
    return this.create(ttsKind, job, reservation);
  }

  /**
   * Queues an STT job whose media arrives first (an upload, a copy, a download): `receive` puts the media in
   * the job's folder and admits the request (see `create`).
   */
  createSttJobWith(origin: JobOrigin, receive: NewSttJob['receive']): Promise<JobRecord> {
    return this.create(sttKind, { origin, receive });
  }

  /** Queues an alignment whose media and script arrive first, as `createSttJobWith` does for STT. */
  createAlignJobWith(origin: JobOrigin, receive: NewAlignJob['receive']): Promise<JobRecord> {
    return this.create(alignKind, { origin, receive });
  }

  /** The data directory the jobs run in (admission reads what is installed there). */
  get dataDir(): string {
    return this.options.dataDir;
  }

  /**
   * The lexicon a TTS job speaks with: the data directory's entries, with `over` (the job's own, e.g. the
   * editor's workspace lexicon) winning where both have a word. A lexicon file that cannot be read fails
   * the job's creation with a sentence naming it: a job never speaks without the lexicon in silence.
   */
  async lexiconWith(over: readonly LexiconEntry[]): Promise<readonly LexiconEntry[]> {
    return mergeLexicons((await readLexicon(this.options.dataDir)).entries, over);
  }

  /** Cancels a queued or running job; resolves with the cancelled record once it is persisted. */
  async cancel(id: string): Promise<JobRecord> {
    const job = this.options.store.latest(id);
    if (!job) throw new Error(`Job ${id} is not in the store.`);
    if (!isActive(job.status)) throw new JobNotActiveError(job);
    // Withdraws it from the scheduler while it waits, or ends its engine process while it runs.
    this.running.get(id)?.controller.abort();
    return this.move(id, 'cancelled', { error: null });
  }

  /** Cancels the job if it is still queued or running (its caller went away); a finished job stays as it is. */
  cancelIfActive(id: string): void {
    const job = this.options.store.latest(id);
    if (job && isActive(job.status)) this.cancel(id).catch(() => undefined);
  }

  /** Removes a finished job with its files; an active job is cancelled first. */
  async delete(id: string): Promise<void> {
    const job = this.options.store.latest(id);
    if (!job) return;
    if (isActive(job.status)) await this.cancel(id);
    await this.running.get(id)?.done;
    await this.options.store.remove([id]);
    await this.files.remove(id);
  }

  /** Stops running work: running jobs become interrupted, queued jobs stay queued for the next start. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    // Jobs still waiting at the scheduler are withdrawn first (they stay queued), so none starts as the engine ends.
    for (const entry of this.running.values()) if (!entry.started) entry.controller.abort();
    const runningIds = [...this.running].filter(([, entry]) => entry.started).map(([id]) => id);
    await Promise.all(
      runningIds.map((id) =>
        this.move(id, 'interrupted', {
          error: 'The job was interrupted because Speech Studio stopped while it ran.',
        }).catch(() => undefined),
      ),
    );
    await this.options.engine.close();
    await Promise.all([...this.running.values()].map((r) => r.done));
    await this.options.store.flush();
  }

  private newRecord<K extends string>(
    id: string,
    origin: JobOrigin,
    name: string,
    input: { kind: K },
    remoteKeyName?: string,
  ): JobRecord {
    const record: KindRecord<K, typeof input, null> = {
      id,
      name,
      kind: input.kind,
      status: 'queued',
      progress: 0,
      phase: 'queued',
      backend: null,
      result: null,
      error: null,
      createdAt: monotonicNow(),
      startedAt: null,
      finishedAt: null,
      origin,
      ...(remoteKeyName === undefined ? {} : { remoteKeyName }),
      input,
      outputFile: null,
    };
    // A registry kind's module made the input, so kind and input are one of JobRecord's pairs.
    return record as unknown as JobRecord;
  }

  private async enqueue(record: JobRecord, reservation: Reservation): Promise<JobRecord> {
    try {
      await this.options.store.insert(record);
    } finally {
      reservation.release();
    }
    if (record.origin === 'api') this.activeApiJobs.add(record.id);
    this.emit('change', record);
    this.dispatch(record.id);
    return record;
  }

  /** Hands a queued job to the engine scheduler, which starts it when the job lane has room (in the order handed). */
  private dispatch(id: string): void {
    if (this.stopping || this.running.has(id)) return;
    const entry: RunningJob = { controller: new AbortController(), done: Promise.resolve(), started: false };
    this.running.set(id, entry);
    // runJob hands the job to the scheduler before its first await, so jobs wait there in the order dispatched.
    entry.done = this.runJob(id, entry)
      .catch((error: unknown) => this.options.log.error(`Job ${id} could not be run: ${describeThrown(error)}`))
      .finally(() => this.running.delete(id));
  }

  private async runJob(id: string, entry: RunningJob): Promise<void> {
    const { signal } = entry.controller;
    const queued = this.options.store.latest(id);
    if (!queued || queued.status !== 'queued') return; // cancelled or removed meanwhile
    const task = this.files.task(queued);
    let job = queued;
    let startFailure: { error: unknown } | undefined;
    /** Runs when the scheduler starts the job: the engine is chosen now, so `backend` is known while it runs, and after it is cancelled or interrupted. */
    const start = async (): Promise<typeof task> => {
      if (this.stopping || signal.aborted) throw new EngineCancelledError();
      entry.started = true;
      try {
        job = await this.move(id, 'loading_model', { backend: taskBackend(task) });
      } catch (error) {
        startFailure = { error };
        throw error;
      }
      return task;
    };
    let updates = Promise.resolve();
    const onProgress = (phase: EnginePhase, progress: number): void => {
      updates = updates
        .then(async () => {
          const latest = this.options.store.latest(id);
          if (latest?.status === 'loading_model' && !PREPARING_PHASES.has(phase)) {
            await this.move(id, 'processing', { phase });
          }
          this.options.store.setProgress(id, progress, phase);
          const visible = this.options.store.get(id);
          if (visible) this.emit('change', visible);
        })
        .catch(() => undefined);
    };
    try {
      const onSegments = (segments: RecognizedSegment[]): void => void this.emit('segments', id, segments);
      const outcome = await this.options.engine.runWhenReady(id, task, start, { signal, onProgress, onSegments });
      await updates;
      if (this.options.store.latest(id)?.status === 'loading_model') await this.move(id, 'processing');
      // The job's kind made the task (JobFiles.task), so the engine's answer is that kind's result.
      const result = outcome.result as JobRecord['result'];
      await this.move(id, 'succeeded', {
        backend: outcome.backend,
        result,
        outputFile: this.files.finishedOutputFile(job),
      });
    } catch (error) {
      if (startFailure) return this.failUnstarted(id, startFailure.error);
      await updates;
      const latest = this.options.store.latest(id);
      if (!latest || !isActive(latest.status)) return;
      if (error instanceof EngineCancelledError) return; // cancelled, or withdrawn by shutdown (then still queued)
      this.options.log.warn(`Job ${id} failed: ${describeThrown(error)}`);
      await this.move(id, 'failed', { error: describeThrown(error) }).catch(() => undefined);
    }
  }

  /**
   * A job that could not even start (most likely its record could not be saved as loading_model): it ends
   * failed with the reason, so it neither waits forever nor holds its place in the queue. If the store cannot
   * save that either, the job is failed in memory (what readers see until a restart) and the log says why.
   */
  private async failUnstarted(id: string, error: unknown): Promise<void> {
    const latest = this.options.store.latest(id);
    if (!latest || !isActive(latest.status)) return; // cancelled meanwhile: nothing is left to do
    this.options.log.error(`Job ${id} could not start: ${describeThrown(error)}`);
    const reason = `The job could not start (${describeThrown(error)}). Check that Speech Studio's data directory is writable and has free space, then run the job again.`;
    try {
      await this.move(id, 'failed', { error: reason });
    } catch (again) {
      this.options.log.error(`Job ${id} could not be marked failed either: ${describeThrown(again)}`);
    }
  }

  /**
   * Persists a transition, then announces it; a terminal state first tidies the job's folder (so whoever
   * sees the job finished sees only its output), then prunes history. When the write fails, the store has
   * still applied the change in memory (what readers see), so the service keeps its own books in step (a
   * finished job holds no queue place) before the error goes up.
   */
  private async move(id: string, to: JobStatus, details: TransitionDetails = {}): Promise<JobRecord> {
    const before = this.options.store.get(id);
    if (before && !isActive(to) && canTransition(before.status, to))
      await this.files.keepOnlyOutput({ ...before, outputFile: details.outputFile ?? null });
    let job: JobRecord;
    try {
      job = await this.options.store.update(id, (current) => transition(current, to, details));
    } catch (error) {
      const applied = this.options.store.get(id);
      if (applied?.status === to) {
        this.emit('change', applied);
        if (!isActive(to)) this.activeApiJobs.delete(id);
      }
      throw error;
    }
    this.emit('change', job);
    if (!isActive(job.status)) {
      this.activeApiJobs.delete(id);
      await this.prune();
    }
    return job;
  }

  /** Beyond the limit, prunes a tenth more than needed, so the sort over the history is paid once per many jobs. */
  private async prune(): Promise<void> {
    const limit = this.options.maxFinishedJobs;
    if (this.options.store.size <= limit) return;
    const finished = this.options.store
      .all()
      .filter((job) => !isActive(job.status))
      .sort((a, b) => (a.finishedAt ?? a.createdAt) - (b.finishedAt ?? b.createdAt));
    if (finished.length <= limit) return;
    const keep = limit - Math.floor(limit / 10);
    const excess = finished.slice(0, finished.length - keep).map((job) => job.id);
    await this.options.store.remove(excess);
    await Promise.all(excess.map((id) => this.files.remove(id)));
  }
}
