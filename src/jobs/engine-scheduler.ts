/**
 * The one queue in front of the engine processes: it decides which engine task runs next and how many run at
 * once. Interactive speech goes before analysis (waveform, speech regions), analysis before queued jobs; each
 * priority has its own lane limit under a total cap, so a long transcription never takes the process that
 * Read Aloud needs. A task still waiting is withdrawn when its signal aborts.
 */
import os from 'node:os';
import type { EngineLimits } from '../engine/engine-config';

/** Who is waiting: `interactive` (Read Aloud, previews, live sessions), `analysis` (waveform, VAD), `job` (queued TTS/STT jobs). */
export type EnginePriority = 'interactive' | 'analysis' | 'job';

export const ENGINE_PRIORITIES: readonly EnginePriority[] = ['interactive', 'analysis', 'job'];

export type { EngineLimits };

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
  if (!Number.isInteger(maxProcesses) || maxProcesses < 1) throw new TypeError(`Expected maxProcesses to be a whole number ≥ 1, got ${maxProcesses}`);
  if (!Number.isInteger(maxJobProcesses) || maxJobProcesses < 1 || maxJobProcesses > maxProcesses) {
    throw new TypeError(`Expected maxJobProcesses to be a whole number from 1 to maxProcesses (${maxProcesses}), got ${maxJobProcesses}`);
  }
  return { maxProcesses, maxJobProcesses };
}

/** Per-priority lane limits: one interactive task at a time (sentences keep one warm process), analysis and jobs below the total. */
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

export class EngineTaskWithdrawnError extends Error {
  constructor() {
    super('The engine task was withdrawn before it started.');
    this.name = 'EngineTaskWithdrawnError';
  }
}

interface Waiting {
  priority: EnginePriority;
  order: number;
  start(): void;
}

export class EngineScheduler {
  private readonly lanes: Record<EnginePriority, number>;
  private readonly running: Record<EnginePriority, number> = { interactive: 0, analysis: 0, job: 0 };
  private readonly waiting: Waiting[] = [];
  private order = 0;

  constructor(readonly limits: EngineLimits = defaultEngineLimits()) {
    checkEngineLimits(limits);
    this.lanes = laneLimits(limits);
  }

  /**
   * Runs `start` when a slot for `priority` is free and nothing of a higher priority (or earlier, at the same
   * priority) waits for it. Rejects with EngineTaskWithdrawnError if `signal` aborts while the task waits.
   */
  schedule<T>(priority: EnginePriority, signal: AbortSignal | undefined, start: () => StartedTask<T>): Promise<T> {
    if (!ENGINE_PRIORITIES.includes(priority)) throw new TypeError(`Expected an engine priority (${ENGINE_PRIORITIES.join(', ')}), got ${String(priority)}`);
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
        order: this.order++,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running[priority]++;
          let started: StartedTask<T>;
          try {
            started = start();
          } catch (error) {
            started = { result: Promise.reject(error), freed: Promise.resolve() };
          }
          started.result.then(resolve, reject);
          started.freed.catch(() => undefined).then(() => {
            this.running[priority]--;
            this.pump();
          });
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.pump();
    });
  }

  /** Tasks running now, in all. */
  get active(): number {
    return ENGINE_PRIORITIES.reduce((sum, p) => sum + this.running[p], 0);
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Starts waiting tasks in priority order while slots are free; a task whose lane is full lets the next lane's go ahead. */
  private pump(): void {
    this.waiting.sort((a, b) => ENGINE_PRIORITIES.indexOf(a.priority) - ENGINE_PRIORITIES.indexOf(b.priority) || a.order - b.order);
    for (let i = 0; i < this.waiting.length && this.active < this.limits.maxProcesses;) {
      const next = this.waiting[i];
      if (this.running[next.priority] >= this.lanes[next.priority]) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      next.start();
    }
  }
}
