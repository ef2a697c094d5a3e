import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  YIELDING_KINDS,
  type ChildMessage,
  type EnginePhase,
  type EngineResult,
  type EngineTask,
  type ParentMessage,
  type RecognizedSegment,
  type ResultOf,
  type TaskOutcome,
  type WaveformResult,
  type WaveformTask,
} from '../engine-api/protocol';
import { ENGINE_CONFIG_FLAG, type EngineConfig } from '../engine-api/engine-config';
import { cachePrunerFor } from '../util/data-dir-caches';
import type { Logger } from '../util/log';
import { EngineScheduler, EngineTaskWithdrawnError, type EngineLimits, type StartedTask } from './engine-scheduler';
import { taskPlace, type TaskPlacing } from './task-places';

export type { EngineLimits, EnginePriority } from './engine-scheduler';

export interface EngineRunOptions {
  /** Cancels the task, waiting or running (a running one ends its engine process). */
  signal: AbortSignal;
  /**
   * Withdraws the task while it still waits for an engine process, but never stops it once it runs: for work
   * that became stale (Read Aloud's skipped sentence), where ending the warm process would cost more.
   */
  withdrawSignal?: AbortSignal;
  onProgress(phase: EnginePhase, progress: number): void;
  onSegments?(segments: RecognizedSegment[]): void;
}

export class EngineCancelledError extends Error {
  constructor() {
    super('The job was cancelled.');
    this.name = 'EngineCancelledError';
  }
}

/** A task gave its process to interactive speech; the scheduler runs it again, so its caller never sees this. */
export class EngineYieldedError extends Error {
  constructor() {
    super('The engine task gave its process to interactive speech.');
    this.name = 'EngineYieldedError';
  }
}

/**
 * How long a task asked to yield has to answer before its process is ended: a yielding task stops between
 * chunks of its work, far sooner; one that does not answer (its event loop held by native work) must still not
 * keep interactive speech waiting long.
 */
export const YIELD_BOUND_MS = 200;

/** How borrowed processes came back to interactive speech: kept warm, or ended (for diagnostics and the bench). */
export interface YieldCounts {
  /** The task stopped and its process stayed alive, warm, for the next task. */
  kept: number;
  /** The task could not yield (its kind does not, or it did not answer within YIELD_BOUND_MS): its process was ended. */
  ended: number;
}

export interface EngineHostOptions {
  workerPath: string;
  log: Logger;
  /** An engine process with no job for this long exits, returning its memory (models stay warm until then). */
  idleTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * The engine configuration each new engine process gets (a function: built again for each, e.g. from the
   * environment as it is then). Always given: the composition root builds it (src/config/engine-environment.ts)
   * and passes it down; no process-wide configuration stands in for it.
   */
  config: EngineConfig | (() => EngineConfig);
  /** How many engine processes run at once, in all and for jobs; default: the configuration's, else from the core count (engine-scheduler.ts). */
  limits?: EngineLimits;
}

interface RunningJob {
  jobId: string;
  options: EngineRunOptions;
  /** Listens on `options.signal` while the job runs; removed when it settles, however it settles. */
  onAbort: () => void;
  resolve(outcome: TaskOutcome<EngineResult>): void;
  reject(error: Error): void;
  /** Listens on the scheduler's yield signal while the job runs. */
  onYield: () => void;
  yieldSignal: AbortSignal | undefined;
  /** Ends the process if the task does not answer a yield in time. */
  yieldDeadline?: NodeJS.Timeout;
}

/**
 * On POSIX the engine leads its own process group, so ending it also ends what it started (ffmpeg,
 * ffprobe): a decoder stuck on a pathological input must not outlive a cancelled or crashed engine.
 */
const OWN_PROCESS_GROUP = process.platform !== 'win32';

/** One engine child process; it runs one job at a time. */
class EngineProcess {
  readonly child: ChildProcess;
  /** The kind of the last task it ran: a task of the same kind prefers this process (its models are warm). */
  lastKind: EngineTask['kind'] | undefined;
  private job: RunningJob | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private ended = false;
  /** It started and said so: one that dies before this is failing to start, and is not started again unasked. */
  private started = false;
  readonly exited: Promise<void>;

  constructor(
    private readonly host: EngineHostOptions,
    private readonly onGone: (p: EngineProcess) => void,
    private readonly counts: YieldCounts,
  ) {
    const config = typeof host.config === 'function' ? host.config() : host.config;
    this.child = fork(host.workerPath, [ENGINE_CONFIG_FLAG, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      ...(host.env ? { env: host.env } : {}),
      execArgv: [],
      detached: OWN_PROCESS_GROUP,
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.logLines(chunk, 'info'));
    this.child.stderr?.on('data', (chunk: Buffer) => this.logLines(chunk, 'warn'));
    this.child.on('message', (message: ChildMessage) => this.onMessage(message));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.onExit(code, signal);
        resolve();
      });
    });
    this.child.once('error', (error) => {
      this.host.log.error(`Engine process error: ${error.message}`);
      this.fail(new Error(`The speech engine could not run: ${error.message}`));
    });
  }

  /** Idle and alive: a killed process is never handed another job, even before its exit event. */
  get available(): boolean {
    return this.job === undefined && !this.ended;
  }

  get gone(): boolean {
    return this.ended;
  }

  get startedOnce(): boolean {
    return this.started;
  }

  /** Loads what the first task would wait for, while nothing runs (worker.ts). */
  warmUp(): void {
    const message: ParentMessage = { type: 'warm' };
    this.child.send(message, () => undefined);
  }

  /**
   * Runs the task here. When `yieldSignal` aborts, a task of a yielding kind is asked to stop and its process
   * stays, warm; any other task, or one that does not answer within YIELD_BOUND_MS, ends the process. Either
   * way the promise rejects with EngineYieldedError.
   */
  run<T extends EngineTask>(
    jobId: string,
    task: T,
    options: EngineRunOptions,
    yieldSignal?: AbortSignal,
  ): Promise<TaskOutcome<ResultOf<T>>> {
    clearTimeout(this.idleTimer);
    this.lastKind = task.kind;
    // The child answers a task with the result of its kind (worker.ts dispatches on `kind`).
    return new Promise<TaskOutcome<EngineResult>>((resolve, reject) => {
      // Bound to this job: a signal aborted after the job settled must not cancel whatever job runs next.
      const onAbort = (): void => {
        if (this.job === job) this.cancel();
      };
      const onYield = (): void => {
        if (this.job === job) this.askToYield(job, YIELDING_KINDS.has(task.kind));
      };
      const job: RunningJob = { jobId, options, onAbort, resolve, reject, onYield, yieldSignal };
      this.job = job;
      if (options.signal.aborted) return this.cancel();
      // Asked to yield before it was sent: this process never had it, and stays.
      if (yieldSignal?.aborted) return this.finish(() => reject(new EngineYieldedError()));
      options.signal.addEventListener('abort', onAbort, { once: true });
      yieldSignal?.addEventListener('abort', onYield, { once: true });
      const message: ParentMessage = { type: 'run', jobId, task };
      this.child.send(message, (error) => {
        if (error) this.fail(new Error(`The speech engine could not be reached: ${error.message}`));
      });
    }) as Promise<TaskOutcome<ResultOf<T>>>;
  }

  kill(): void {
    this.ended = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    this.killHelpers();
  }

  /** Ends the rest of the engine's process group (its ffmpeg or ffprobe), also after the engine itself died. */
  private killHelpers(): void {
    if (!OWN_PROCESS_GROUP || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the group is already empty.
    }
  }

  private cancel(): void {
    this.endJob(new EngineCancelledError());
  }

  /** Ends this process under its current job, which rejects with `error`; false when no job was running. */
  private endJob(error: Error): boolean {
    const job = this.release();
    if (!job) return false;
    this.kill();
    job.reject(error);
    return true;
  }

  /** Asks the task to stop and keep this process (worker.ts answers `yielded`), or ends the process when it cannot or does not. */
  private askToYield(job: RunningJob, canYield: boolean): void {
    if (!canYield) return this.endToYield();
    const message: ParentMessage = { type: 'yield', jobId: job.jobId };
    this.child.send(message, (error) => {
      if (error && this.job === job) this.endToYield();
    });
    job.yieldDeadline = setTimeout(() => {
      if (this.job !== job) return;
      this.host.log.info(
        `Engine process ${this.child.pid} did not yield within ${YIELD_BOUND_MS} ms: ending it so interactive speech can run.`,
      );
      this.endToYield();
    }, YIELD_BOUND_MS);
  }

  private endToYield(): void {
    if (this.endJob(new EngineYieldedError())) this.counts.ended++;
  }

  /** Takes the current job off this process and stops listening to its signals. */
  private release(): RunningJob | undefined {
    const job = this.job;
    this.job = undefined;
    job?.options.signal.removeEventListener('abort', job.onAbort);
    job?.yieldSignal?.removeEventListener('abort', job.onYield);
    clearTimeout(job?.yieldDeadline);
    return job;
  }

  private onMessage(message: ChildMessage): void {
    if (message.type === 'ready') this.started = true;
    const job = this.job;
    if (!job || !('jobId' in message) || message.jobId !== job.jobId) return;
    switch (message.type) {
      case 'progress':
        job.options.onProgress(message.phase, message.progress);
        return;
      case 'segments':
        job.options.onSegments?.(message.segments);
        return;
      case 'result':
        this.finish(() => job.resolve({ backend: message.backend, result: message.result }));
        return;
      case 'failed':
        this.finish(() => job.reject(new Error(message.message)));
        return;
      case 'yielded':
        this.counts.kept++;
        this.finish(() => job.reject(new EngineYieldedError()));
        return;
    }
  }

  private finish(settle: () => void): void {
    this.release();
    settle();
    const idle = this.host.idleTimeoutMs ?? 10 * 60_000;
    this.idleTimer = setTimeout(() => this.kill(), idle);
    this.idleTimer.unref();
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.ended = true;
    this.killHelpers();
    clearTimeout(this.idleTimer);
    this.onGone(this);
    const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
    this.fail(
      new Error(
        `The speech engine stopped unexpectedly (it ${how}) while running this job. The next job starts a fresh engine.`,
      ),
    );
  }

  private fail(error: Error): void {
    this.release()?.reject(error);
  }

  private logLines(chunk: Buffer, level: 'info' | 'warn'): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim()) this.host.log[level](`[engine ${this.child.pid}] ${line}`);
    }
  }
}

/**
 * Runs engine tasks in child processes, so that the server's event loop never does engine work.
 * Processes are started on first need and reused while they live (warm models); cancel and crashes end one.
 * Every task passes the engine scheduler, which caps the processes and orders waiting tasks by the place of
 * their kind (task-places.ts): callers never choose a priority.
 */
export class EngineHost {
  private readonly processes = new Set<EngineProcess>();
  /** Processes handed to a task that has not been sent to them yet: nobody else may take them meanwhile. */
  private readonly claimed = new Set<EngineProcess>();
  private readonly yieldCounts: YieldCounts = { kept: 0, ended: 0 };
  private keepWarm = false;
  private closed = false;
  readonly scheduler: EngineScheduler;

  constructor(private readonly options: EngineHostOptions) {
    const config = typeof options.config === 'function' ? options.config() : options.config;
    this.scheduler = new EngineScheduler(options.limits ?? config.limits);
  }

  /** Runs the task when the scheduler gives it a process: its kind decides where it waits (task-places.ts). */
  run<T extends EngineTask>(jobId: string, task: T, options: EngineRunOptions): Promise<TaskOutcome<ResultOf<T>>> {
    return this.runWhenReady(jobId, task, () => task, options);
  }

  /**
   * Like `run`, but the task is made when its turn comes: `make` runs once the scheduler has given it a slot,
   * before any process is chosen, so it can see the state of things then (a job moves to `loading_model`
   * only now; a live look takes the newest audio). `placing` (the task's kind, and for a live look whether it
   * is a committed utterance's decode) decides where it waits. If `make` throws, the task fails with that
   * error and its slot is free again.
   */
  async runWhenReady<T extends EngineTask>(
    jobId: string,
    placing: TaskPlacing & { kind: T['kind'] },
    make: () => T | Promise<T>,
    options: EngineRunOptions,
  ): Promise<TaskOutcome<ResultOf<T>>> {
    const waitSignal = options.withdrawSignal
      ? AbortSignal.any([options.signal, options.withdrawSignal])
      : options.signal;
    try {
      return await this.scheduler.schedule(taskPlace(placing), waitSignal, (yieldSignal) =>
        this.start(jobId, make, options, yieldSignal),
      );
    } catch (error) {
      throw error instanceof EngineTaskWithdrawnError ? new EngineCancelledError() : error;
    }
  }

  /** Tasks of this kind waiting for an engine process (a live look tells its session how many others wait). */
  waitingOf(kind: EngineTask['kind']): number {
    return this.scheduler.queuedOf(kind);
  }

  /** Makes the task, then runs it in an idle process or a new one; its slot is free once it settled and a killed process has exited. */
  private start<T extends EngineTask>(
    jobId: string,
    make: () => T | Promise<T>,
    options: EngineRunOptions,
    yieldSignal: AbortSignal,
  ): StartedTask<TaskOutcome<ResultOf<T>>> {
    let release!: () => void;
    const freed = new Promise<void>((resolve) => (release = resolve));
    const result = Promise.resolve()
      .then(make)
      .then((task) =>
        this.processFor(task.kind).then((process) => {
          this.claimed.delete(process);
          const outcome = process.run(jobId, task, options, yieldSignal);
          outcome.then(release, () => (process.gone ? process.exited.then(release) : release()));
          return outcome;
        }),
      );
    result.catch(() => release());
    return { result, freed };
  }

  /** An idle process, preferring one that last ran this kind of task; else a new one, once an ended one has left room. */
  private async processFor(kind: EngineTask['kind']): Promise<EngineProcess> {
    for (;;) {
      const idle = [...this.processes].filter((p) => p.available && !this.claimed.has(p));
      const chosen = idle.find((p) => p.lastKind === kind) ?? idle[0];
      if (chosen) return this.claim(chosen);
      const ending = [...this.processes].filter((p) => p.gone);
      if (this.processes.size < this.scheduler.limits.maxProcesses || ending.length === 0) break;
      await Promise.race(ending.map((p) => p.exited));
    }
    return this.claim(this.newProcess());
  }

  private newProcess(): EngineProcess {
    const process = new EngineProcess(
      this.options,
      (gone) => {
        this.processes.delete(gone);
        this.claimed.delete(gone);
        // The last one ended (idle, cancelled, crashed after starting): the next one is made ready before it is needed.
        if (gone.startedOnce) setImmediate(() => this.warmOne());
      },
      this.yieldCounts,
    );
    this.processes.add(process);
    return process;
  }

  /**
   * From now on one engine process is kept ready while none runs: started at once in the background, and
   * again whenever the last one ends, so the first job after a start or a quiet spell does not pay for the
   * process and espeak-ng. A process that fails before it starts is not retried here (the next task will).
   */
  keepOneWarm(): void {
    this.keepWarm = true;
    this.warmOne();
  }

  private warmOne(): void {
    if (!this.keepWarm || this.closed || this.processes.size > 0) return;
    this.newProcess().warmUp();
  }

  private claim(process: EngineProcess): EngineProcess {
    this.claimed.add(process);
    return process;
  }

  /**
   * The waveform peaks of a media file, for the editor: not a job, so it does not wait in the job lane; it runs
   * in an engine process in the analysis lane, never in this process.
   */
  async waveform(task: WaveformTask, signal: AbortSignal): Promise<WaveformResult> {
    const outcome = await this.run(`waveform-${randomUUID()}`, task, { signal, onProgress: () => undefined });
    if (!outcome.result.cached) cachePrunerFor(task.dataDir).noteWrite('waveforms');
    return outcome.result;
  }

  /** How often a task gave its process to interactive speech, with the process kept warm or ended. */
  get yields(): Readonly<YieldCounts> {
    return { ...this.yieldCounts };
  }

  /** Process ids of the live engine processes (for diagnostics and fault tests). */
  get pids(): number[] {
    return [...this.processes].map((p) => p.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.processes];
    for (const p of all) p.kill();
    await Promise.all(all.map((p) => p.exited));
  }
}
