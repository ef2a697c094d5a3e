/**
 * The one queue in front of the engine processes: it decides which engine task runs next and how many run at
 * once. Interactive speech goes before analysis (waveform, speech regions), analysis before queued jobs; each
 * priority has its own lane limit under a total cap, so a long transcription never takes the process that
 * Read Aloud needs. A task still waiting is withdrawn when its signal aborts.
 *
 * Jobs never hold every process, but analysis may borrow the last one (a timeline's waveform should not wait
 * for a transcription). The last process still belongs to interactive speech: an interactive task that finds
 * every process busy makes a borrowing analysis task yield (it stops and runs again later; the engine host
 * keeps its process alive and warm for the speech when the task can stop on request, and ends it otherwise),
 * and analysis does not borrow the last process again while speech has run within the last
 * moments (a reader between two sentences).
 *
 * Within a lane, tasks wait by rank, then in arrival order: live recognition's committed utterance goes before
 * its looks at uncommitted audio (src/jobs/task-places.ts says where each kind of task waits). The job lane is
 * the one cap on jobs: the job service hands every runnable job here at once, oldest first.
 */
import os from 'node:os';
import type { EngineLimits } from '../engine-api/engine-config';

/** Who is waiting: `interactive` (Read Aloud, previews, live sessions), `analysis` (waveform, VAD), `job` (queued TTS/STT jobs). */
export type EnginePriority = 'interactive' | 'analysis' | 'job';

export const ENGINE_PRIORITIES: readonly EnginePriority[] = ['interactive', 'analysis', 'job'];

export type { EngineLimits };

/** Where a task waits: its lane, and within the lane its rank (lower first; equal ranks in arrival order). */
export interface TaskPlace {
  lane: EnginePriority;
  rank: number;
  /** What the task is (its engine kind), counted by `queuedOf`. */
  label?: string;
}

/** The time and timers the scheduler uses (the grace after speech): the system's, or a test's mock. */
export interface SchedulerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
}

/** The system clock, looked up at each call (so node:test's mock timers also reach a scheduler built without a clock). */
export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
};

/**
 * The default limits for a machine with `cores` cores: one process per core between 2 and 4, and all but one
 * of them for jobs, so that one is always free for interactive speech (on 2 cores: one job process plus one
 * interactive process).
 */
export function defaultEngineLimits(cores = os.availableParallelism?.() ?? os.cpus().length): EngineLimits {
  const maxProcesses = Math.max(2, Math.min(4, cores));
  return { maxProcesses, maxJobProcesses: maxProcesses - 1 };
}

/** Checks limits at the boundary (configuration), so the queue never deadlocks on a zero. */
export function checkEngineLimits(limits: EngineLimits): EngineLimits {
  const { maxProcesses, maxJobProcesses } = limits;
  if (!Number.isInteger(maxProcesses) || maxProcesses < 1)
    throw new TypeError(`Expected maxProcesses to be a whole number ≥ 1, got ${maxProcesses}`);
  if (!Number.isInteger(maxJobProcesses) || maxJobProcesses < 1 || maxJobProcesses > maxProcesses) {
    throw new TypeError(
      `Expected maxJobProcesses to be a whole number from 1 to maxProcesses (${maxProcesses}), got ${maxJobProcesses}`,
    );
  }
  return { maxProcesses, maxJobProcesses };
}

/** Per-priority lane limits: one interactive task at a time (sentences keep one warm process), analysis and jobs below the total (analysis may borrow speech's process, see above). */
function laneLimits(limits: EngineLimits): Record<EnginePriority, number> {
  return {
    interactive: 1,
    analysis: Math.max(1, limits.maxProcesses - 1),
    job: limits.maxJobProcesses,
  };
}

/** What a started task gives back: its result, and when its process slot is free again (after a killed process has exited). */
export interface StartedTask<T> {
  result: Promise<T>;
  freed: Promise<void>;
}

/** How long after interactive speech analysis keeps off the last free process (the gap between two sentences is far shorter). */
export const INTERACTIVE_GRACE_MS = 2_000;

export class EngineTaskWithdrawnError extends Error {
  constructor() {
    super('The engine task was withdrawn before it started.');
    this.name = 'EngineTaskWithdrawnError';
  }
}

interface Waiting {
  priority: EnginePriority;
  rank: number;
  label: string | undefined;
  order: number;
  start(): void;
}

/** A running analysis task that can be asked to give its process back. */
interface Borrower {
  yielding: AbortController;
}

export class EngineScheduler {
  private readonly lanes: Record<EnginePriority, number>;
  private readonly running: Record<EnginePriority, number> = { interactive: 0, analysis: 0, job: 0 };
  private readonly waiting: Waiting[] = [];
  private readonly borrowers = new Set<Borrower>();
  private order = 0;
  private lastInteractiveAt = -Infinity;
  private reclaims = 0;
  private graceTimerSet = false;

  constructor(
    readonly limits: EngineLimits = defaultEngineLimits(),
    private readonly clock: SchedulerClock = systemClock,
  ) {
    checkEngineLimits(limits);
    this.lanes = laneLimits(limits);
  }

  /**
   * Runs `start` when a slot for the place's lane is free and nothing of a higher lane (or of a lower rank, or
   * earlier, in the same lane) waits for it; a bare priority is that lane at rank 0. Rejects with EngineTaskWithdrawnError if `signal` aborts while the task waits.
   * An analysis task must stop when the signal `start` gets aborts (it yields its process to interactive
   * speech); it is then started again later, so its work must be safe to redo.
   */
  schedule<T>(
    place: EnginePriority | TaskPlace,
    signal: AbortSignal | undefined,
    start: (yieldSignal: AbortSignal) => StartedTask<T>,
  ): Promise<T> {
    const {
      lane: priority,
      rank,
      label,
    } = typeof place === 'string' ? { lane: place, rank: 0, label: undefined } : place;
    if (!ENGINE_PRIORITIES.includes(priority))
      throw new TypeError(`Expected an engine priority (${ENGINE_PRIORITIES.join(', ')}), got ${String(priority)}`);
    if (!Number.isFinite(rank)) throw new TypeError(`Expected a task rank to be a number, got ${String(rank)}`);
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(new EngineTaskWithdrawnError());
      const onAbort = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        reject(new EngineTaskWithdrawnError());
        this.pump(); // a withdrawn head may have held back a lower lane
      };
      const entry: Waiting = {
        priority,
        rank,
        label,
        order: this.order++,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running[priority]++;
          if (priority === 'interactive') this.lastInteractiveAt = this.clock.now();
          const borrower: Borrower = { yielding: new AbortController() };
          if (priority === 'analysis') this.borrowers.add(borrower);
          let settled = false;
          let started: StartedTask<T>;
          try {
            started = start(borrower.yielding.signal);
          } catch (error) {
            started = { result: Promise.reject(error), freed: Promise.resolve() };
          }
          started.result.then(
            (value) => {
              settled = true;
              resolve(value);
            },
            (error: unknown) => {
              if (borrower.yielding.signal.aborted) return; // it yielded: it runs again
              settled = true;
              reject(error);
            },
          );
          void started.freed
            .catch(() => undefined)
            .then(() => {
              this.running[priority]--;
              this.borrowers.delete(borrower);
              if (priority === 'interactive') this.lastInteractiveAt = this.clock.now();
              if (borrower.yielding.signal.aborted && !settled) {
                // Its caller may have given up while it was yielding: then it is withdrawn, not run again.
                if (signal?.aborted) reject(new EngineTaskWithdrawnError());
                else this.wait(entry, signal, onAbort);
              }
              this.pump();
            });
        },
      };
      this.wait(entry, signal, onAbort);
      this.pump();
    });
  }

  private wait(entry: Waiting, signal: AbortSignal | undefined, onAbort: () => void): void {
    signal?.addEventListener('abort', onAbort, { once: true });
    this.waiting.push(entry);
  }

  /** Tasks running now, in all. */
  get active(): number {
    return ENGINE_PRIORITIES.reduce((sum, p) => sum + this.running[p], 0);
  }

  /** How many times an analysis task gave its process back to interactive speech (for diagnostics and the bench). */
  get reclaimed(): number {
    return this.reclaims;
  }

  /** Tasks of `priority` running now. */
  activeFor(priority: EnginePriority): number {
    return this.running[priority];
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Tasks with this label (an engine kind) waiting for a slot. */
  queuedOf(label: string): number {
    return this.waiting.filter((w) => w.label === label).length;
  }

  /**
   * Starts waiting tasks in priority order while slots are free; a task whose lane is full lets the next lane's
   * go ahead. An interactive task that finds every slot taken makes a borrowing analysis task yield.
   */
  private pump(): void {
    this.waiting.sort(
      (a, b) =>
        ENGINE_PRIORITIES.indexOf(a.priority) - ENGINE_PRIORITIES.indexOf(b.priority) ||
        a.rank - b.rank ||
        a.order - b.order,
    );
    for (let i = 0; i < this.waiting.length;) {
      const next = this.waiting[i];
      if (this.running[next.priority] >= this.lanes[next.priority]) {
        i++;
        continue;
      }
      if (this.active >= this.limits.maxProcesses) {
        if (next.priority === 'interactive') this.reclaimFromAnalysis();
        return;
      }
      if (next.priority !== 'interactive' && this.wouldTakeSpeechSlot()) {
        this.pumpAfterGrace();
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      next.start();
    }
  }

  /** Starting one more task now would leave no process for speech that has just been running (only analysis can, unless jobs may use every process). */
  private wouldTakeSpeechSlot(): boolean {
    return (
      this.running.interactive === 0 &&
      this.active + 1 >= this.limits.maxProcesses &&
      this.clock.now() - this.lastInteractiveAt < INTERACTIVE_GRACE_MS
    );
  }

  private reclaimFromAnalysis(): void {
    if ([...this.borrowers].some((b) => b.yielding.signal.aborted)) return; // one is already giving its slot back
    const borrower = this.borrowers.values().next().value;
    if (!borrower) return;
    this.reclaims++;
    borrower.yielding.abort();
  }

  private pumpAfterGrace(): void {
    if (this.graceTimerSet) return;
    this.graceTimerSet = true;
    const wait = Math.max(0, this.lastInteractiveAt + INTERACTIVE_GRACE_MS - this.clock.now()) + 1;
    this.clock.setTimeout(() => {
      this.graceTimerSet = false;
      this.pump();
    }, wait); // not unref'd: a waiting task must run even where nothing else keeps the process alive (the CLI)
  }
}
