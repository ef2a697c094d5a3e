import { promises as fs } from 'node:fs';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { Logger } from '../util/log';
import { isActive, type JobRecord } from './types';

interface StoreData {
  version: 1;
  jobs: JobRecord[];
}

const PROGRESS_FLUSH_MS = 1000;

/**
 * The durable job store. `committed` is what is (being) written; readers see a change only once the write
 * that carries it has finished, so every state a client sees survives a crash. Progress is the exception:
 * it is shown at once and written at a bounded rate.
 */
export class JobStore {
  private readonly committed = new Map<string, JobRecord>();
  /** What readers see for jobs whose latest change is still being written (undefined: not yet created). */
  private readonly shown = new Map<string, JobRecord | undefined>();
  private readonly pendingWrites = new Map<string, number>();
  private progressTimer: NodeJS.Timeout | undefined;

  private constructor(private readonly db: Low<StoreData>) {
    for (const job of db.data.jobs) this.committed.set(job.id, job);
  }

  /** Opens the store; a damaged file is kept aside under a new name and the store starts empty. */
  static async open(file: string, log: Logger): Promise<JobStore> {
    const db = new Low<StoreData>(new JSONFile<StoreData>(file), { version: 1, jobs: [] });
    try {
      await db.read();
      if (!Array.isArray(db.data?.jobs)) throw new Error('it has no list of jobs');
    } catch (error) {
      const kept = `${file}.damaged-${Date.now()}`;
      await fs.rename(file, kept).catch(() => undefined);
      log.error(`The job store ${file} could not be read (${(error as Error).message}); kept it as ${kept} and started with no jobs.`);
      db.data = { version: 1, jobs: [] };
    }
    return new JobStore(db);
  }

  get(id: string): JobRecord | undefined {
    return this.shown.has(id) ? this.shown.get(id) : this.committed.get(id);
  }

  all(): JobRecord[] {
    const jobs: JobRecord[] = [];
    for (const id of this.committed.keys()) {
      const job = this.get(id);
      if (job) jobs.push(job);
    }
    return jobs;
  }

  /** The latest record including changes still being written: the base for the next change. */
  latest(id: string): JobRecord | undefined {
    return this.committed.get(id);
  }

  async insert(job: JobRecord): Promise<void> {
    await this.commit(job.id, job);
  }

  /** Applies `change` to the latest record and resolves once it is persisted and visible. */
  async update(id: string, change: (job: JobRecord) => JobRecord): Promise<JobRecord> {
    const current = this.committed.get(id);
    if (!current) throw new Error(`Job ${id} is not in the store.`);
    const next = change(current);
    await this.commit(id, next);
    return next;
  }

  setProgress(id: string, progress: number, phase: string): void {
    const job = this.committed.get(id);
    if (!job || !isActive(job.status)) return;
    const updated = { ...job, progress: Math.max(job.progress, Math.min(99, progress)), phase };
    this.committed.set(id, updated);
    this.progressTimer ??= setTimeout(() => {
      this.progressTimer = undefined;
      void this.write().catch(() => undefined);
    }, PROGRESS_FLUSH_MS);
  }

  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.committed.delete(id);
    await this.write();
    for (const id of ids) this.shown.delete(id);
  }

  async flush(): Promise<void> {
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    await this.write();
  }

  private async commit(id: string, next: JobRecord): Promise<void> {
    if (!this.pendingWrites.has(id)) this.shown.set(id, this.committed.get(id));
    this.pendingWrites.set(id, (this.pendingWrites.get(id) ?? 0) + 1);
    this.committed.set(id, next);
    try {
      await this.write();
    } finally {
      const left = (this.pendingWrites.get(id) ?? 1) - 1;
      if (left === 0) {
        this.pendingWrites.delete(id);
        this.shown.delete(id);
      } else {
        this.pendingWrites.set(id, left);
      }
    }
  }

  private write(): Promise<void> {
    this.db.data = { version: 1, jobs: [...this.committed.values()] };
    return this.db.write();
  }
}
