import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { promises as fs } from 'node:fs';
import { ApiError } from '../contract/errors';
import type { LexiconEntry, SttOptions, TtsRequest } from '../contract/types';
import { taskBackend, type EnginePhase, type RecognizedSegment, type WhisperHints } from '../engine-api/protocol';
import { entriesIn } from '../lexicon/apply-lexicon';
import { readLexicon } from '../lexicon/lexicon-file';
import { mergeLexicons } from '../lexicon/merge-lexicon';
import { sttModelKindOf } from '../models/stt-model-kind';
import { describeThrown, type Logger } from '../util/log';
import { EngineCancelledError, type EngineHost } from './engine-host';
import type { BookPlan } from '../audiobook/book-plan';
import { BOOK_PLAN_FILE, JOB_LEXICON_FILE, JobFiles, TTS_TEXT_FILE } from './job-files';
import { nameFromFile, nameFromText } from './job-name';
import { canTransition, transition, type TransitionDetails } from './state';
import type { JobStore } from './store';
import { isActive, RUNNING_STATUSES, type AlignJobInput, type BookJobInput, type DubJobInput, type JobOrigin, type JobRecord, type JobStatus, type TranslateJobInput, type TtsJobInput } from './types';

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
    super('QUEUE_FULL', `The queue is full: ${capacity} Local API jobs are already waiting or running. Try again when one finishes.`, {
      headers: { 'Retry-After': String(QUEUE_RETRY_AFTER_SECONDS) },
    });
    this.name = 'QueueFullError';
  }
}

/** A registry error: JOB_NOT_ACTIVE (422) for a cancel of a job that has already finished. */
export class JobNotActiveError extends ApiError {
  constructor(readonly job: JobRecord) {
    super('JOB_NOT_ACTIVE', `The job has already finished (${job.status}); only queued or running jobs can be cancelled.`);
    this.name = 'JobNotActiveError';
  }
}

/** A place in the queue, held while a request is still being received (an upload), so capacity is exact. */
export interface Reservation {
  release(): void;
}

export interface NewTtsJob {
  origin: JobOrigin;
  /** A remote job's caller: the relay key's name. */
  remoteKeyName?: string;
  request: TtsRequest;
  voice: TtsJobInput['voice'];
  /** The job's name; default: the start of the text. */
  name?: string;
  live?: boolean;
  /** A format the engine encodes instead of the request's outputFormat (the OpenAI door's opus and pcm). */
  encodeAs?: TtsJobInput['encodeAs'];
  /** Entries that win over the data directory's lexicon for the same text and language (the editor's workspace lexicon). */
  lexicon?: readonly LexiconEntry[];
  /** The text is SSML, admitted by admitSsml (ssml-admission.ts). */
  ssml?: TtsJobInput['ssml'];
}

export interface NewSttJob {
  id: string;
  origin: JobOrigin;
  options: SttOptions;
  inputFile: string;
  originalName: string;
  bytes: number;
  modelPath: string;
  /** A remote job's caller: the relay key's name. */
  remoteKeyName?: string;
  /** The job's name; default: the upload's file name. */
  name?: string;
  whisper?: WhisperHints;
  /** An alignment job's script (then `modelPath` is empty: no recognizer runs). */
  align?: AlignJobInput;
}

/** An admitted audiobook export (src/jobs/book-admission.ts); only the editor and the CLI make them. */
export interface NewBookJob {
  origin: 'editor' | 'cli';
  name: string;
  /** The manuscript as the caller gave it. */
  input: string;
  plan: BookPlan;
}

/** An admitted subtitle translation (src/jobs/translate-job.ts); only the editor and the CLI make them. */
export interface NewTranslateJob {
  origin: 'editor' | 'cli';
  name: string;
  /** The subtitle file's text, copied into the job's folder (the engine never reads the user's file). */
  source: string;
  input: Omit<TranslateJobInput, 'kind' | 'inputFile'>;
}

/** An admitted dub (src/jobs/dub-job.ts); only the editor and the CLI make them. */
export interface NewDubJob {
  origin: 'editor' | 'cli';
  name: string;
  /** The subtitles' text when the dub speaks given subtitles, copied into the job's folder. */
  subtitlesText?: string;
  input: Omit<DubJobInput, 'kind' | 'subtitlesFile'>;
}

/** What a door knows of an STT job once its media is in the job's folder. */
export type ReceivedSttJob = Omit<NewSttJob, 'id' | 'origin'>;

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
   * Queues an admitted TTS job (see admission.ts). Without a reservation it takes a place itself
   * (QueueFullError); whatever fails, the place is released and the job's folder removed.
   */
  async createTtsJob(job: NewTtsJob, reservation?: Reservation): Promise<JobRecord> {
    const place = reservation ?? this.reserve(job.origin);
    const { text, ...options } = job.request;
    const id = this.newJobId();
    try {
      await this.files.create(id);
      await fs.writeFile(this.files.file(id, TTS_TEXT_FILE), text, 'utf8');
      const lexicon = entriesIn(text, await this.lexiconWith(job.lexicon ?? []));
      if (lexicon.length) await fs.writeFile(this.files.file(id, JOB_LEXICON_FILE), JSON.stringify(lexicon), 'utf8');
      const input: TtsJobInput = {
        kind: 'tts', options, characters: text.length, voice: job.voice, ...(lexicon.length ? { lexiconEntries: lexicon.length } : {}), ...(job.live ? { live: true } : {}),
        ...(job.encodeAs ? { encodeAs: job.encodeAs } : {}), ...(job.ssml ? { ssml: job.ssml } : {}),
      };
      return await this.enqueue(
        this.newRecord(id, job.origin, job.name ?? nameFromText(text), input, job.remoteKeyName),
        place,
      );
    } catch (error) {
      place.release();
      await this.files.remove(id);
      throw error;
    }
  }

  /** Queues an admitted book export; its plan goes to the job's folder, so the store keeps only counts. */
  async createBookJob(job: NewBookJob): Promise<JobRecord> {
    const id = this.newJobId();
    const place = this.reserve(job.origin);
    try {
      await this.files.create(id);
      await fs.writeFile(this.files.file(id, BOOK_PLAN_FILE), JSON.stringify(job.plan), 'utf8');
      const passages = job.plan.chapters.flatMap((chapter) => chapter.passages);
      const input: BookJobInput = {
        kind: 'book', input: job.input, out: job.plan.out, format: job.plan.format, perChapter: job.plan.perChapter,
        chapters: job.plan.chapters.length, paragraphs: passages.length, characters: passages.reduce((sum, p) => sum + p.text.length, 0),
      };
      return await this.enqueue(this.newRecord(id, job.origin, job.name, input), place);
    } catch (error) {
      place.release();
      await this.files.remove(id);
      throw error;
    }
  }

  /** The data directory the jobs run in (admission reads what is installed there). */
  get dataDir(): string {
    return this.options.dataDir;
  }

  /** Queues an admitted subtitle translation; the file's text goes to the job's folder. */
  async createTranslateJob(job: NewTranslateJob): Promise<JobRecord> {
    const id = this.newJobId();
    const place = this.reserve(job.origin);
    try {
      await this.files.create(id);
      const inputFile = `source.${job.input.format}`;
      await fs.writeFile(this.files.file(id, inputFile), job.source, 'utf8');
      const input: TranslateJobInput = { kind: 'translate', ...job.input, inputFile };
      return await this.enqueue(this.newRecord(id, job.origin, job.name, input), place);
    } catch (error) {
      place.release();
      await this.files.remove(id);
      throw error;
    }
  }

  /** Queues an admitted dub; given subtitles go to the job's folder (the video is read where it is). */
  async createDubJob(job: NewDubJob): Promise<JobRecord> {
    const id = this.newJobId();
    const place = this.reserve(job.origin);
    try {
      await this.files.create(id);
      let subtitlesFile: string | undefined;
      if (job.subtitlesText !== undefined && job.input.subtitlesFormat) {
        subtitlesFile = `subtitles.${job.input.subtitlesFormat}`;
        await fs.writeFile(this.files.file(id, subtitlesFile), job.subtitlesText, 'utf8');
      }
      const input: DubJobInput = { kind: 'dub', ...job.input, ...(subtitlesFile ? { subtitlesFile } : {}) };
      return await this.enqueue(this.newRecord(id, job.origin, job.name, input), place);
    } catch (error) {
      place.release();
      await this.files.remove(id);
      throw error;
    }
  }

  /**
   * The lexicon a TTS job speaks with: the data directory's entries, with `over` (the job's own, e.g. the
   * editor's workspace lexicon) winning where both have a word. A lexicon file that cannot be read fails
   * the job's creation with a sentence naming it: a job never speaks without the lexicon in silence.
   */
  async lexiconWith(over: readonly LexiconEntry[]): Promise<readonly LexiconEntry[]> {
    return mergeLexicons((await readLexicon(this.options.dataDir)).entries, over);
  }

  /**
   * Queues an STT job whose media arrives first (an upload, a copy, a download): takes a place in the queue
   * (QueueFullError) and makes the job's folder, then `receive` puts the media there and admits the request.
   * Whatever fails, the place is released and the folder removed.
   */
  async createSttJobWith(origin: JobOrigin, receive: (id: string, dir: string) => Promise<ReceivedSttJob>): Promise<JobRecord> {
    const reservation = this.reserve(origin);
    const id = this.newJobId();
    try {
      const received = await receive(id, await this.files.create(id));
      return await this.createSttJob({ ...received, id, origin }, reservation);
    } catch (error) {
      reservation.release();
      await this.files.remove(id);
      throw error;
    }
  }

  /** The media is already in the job's folder (the caller put it there under `job.id`). */
  private async createSttJob(job: NewSttJob, reservation: Reservation): Promise<JobRecord> {
    const { id, origin, options, inputFile, originalName, bytes, modelPath, whisper, align } = job;
    const name = job.name ?? nameFromFile(originalName);
    // Known now, while the model file is read without blocking, so the job's backend never needs a file read.
    const recognizer = !align && (await sttModelKindOf(modelPath)) === 'parakeet' ? { recognizer: 'parakeet' as const } : {};
    return this.enqueue(
      this.newRecord(id, origin, name, { kind: 'stt', options, inputFile, originalName, bytes, modelPath, ...recognizer, ...(whisper ? { whisper } : {}), ...(align ? { align } : {}) }, job.remoteKeyName),
      reservation,
    );
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
        this.move(id, 'interrupted', { error: 'The job was interrupted because Speech Studio stopped while it ran.' }).catch(
          () => undefined,
        ),
      ),
    );
    await this.options.engine.close();
    await Promise.all([...this.running.values()].map((r) => r.done));
    await this.options.store.flush();
  }

  private newRecord(id: string, origin: JobOrigin, name: string, input: JobRecord['input'], remoteKeyName?: string): JobRecord {
    return {
      id, name, kind: input.kind, status: 'queued', progress: 0, phase: 'queued', backend: null, result: null,
      error: null, createdAt: Date.now(), startedAt: null, finishedAt: null, origin, ...(remoteKeyName === undefined ? {} : { remoteKeyName }),
      input, outputFile: null,
    };
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
      updates = updates.then(async () => {
        const latest = this.options.store.latest(id);
        if (latest?.status === 'loading_model' && !PREPARING_PHASES.has(phase)) {
          await this.move(id, 'processing', { phase });
        }
        this.options.store.setProgress(id, progress, phase);
        const visible = this.options.store.get(id);
        if (visible) this.emit('change', visible);
      }).catch(() => undefined);
    };
    try {
      const onSegments = (segments: RecognizedSegment[]): void => void this.emit('segments', id, segments);
      const outcome = await this.options.engine.runWhenReady(id, task, start, { signal, onProgress, onSegments });
      await updates;
      if (this.options.store.latest(id)?.status === 'loading_model') await this.move(id, 'processing');
      await this.move(id, 'succeeded', { backend: outcome.backend, result: outcome.result, outputFile: this.files.finishedOutputFile(job) });
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
    if (before && !isActive(to) && canTransition(before.status, to)) await this.files.keepOnlyOutput({ ...before, outputFile: details.outputFile ?? null });
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
