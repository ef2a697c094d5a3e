import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { Logger } from '../util/log';
import { Journal, type JournalEntry } from './journal';
import { isJobRecord, recordProblem, upgradeStored, withDefaults } from './record-check';
import { rebuildJobs, readSnapshot, writeFolderRecord } from './store-rebuild';
import { replayStore } from './store-replay';
import { isActive, type JobRecord } from './types';

interface StoreData {
  version: 1;
  jobs: JobRecord[];
}

const PROGRESS_FLUSH_MS = 1000;
/** The journal is folded into the snapshot once it has this many lines, or more lines than there are jobs. */
const MIN_LINES_BEFORE_COMPACTION = 1000;

/**
 * The durable job store: a lowdb snapshot (`jobs.json`) plus an append-only journal of changes
 * (`jobs.json.journal`), so a change costs one appended line however long the history is.
 * `committed` is what is (being) written; readers see a change only once the write that carries it has
 * finished, so every state a client sees survives a crash. Progress is shown at once and written at a
 * bounded rate.
 */
export class JobStore {
  private readonly committed: Map<string, JobRecord>;
  /** What readers see for jobs whose latest change is still being written (undefined: not yet created). */
  private readonly shown = new Map<string, JobRecord | undefined>();
  private readonly pendingWrites = new Map<string, number>();
  private readonly progressed = new Set<string>();
  private progressTimer: NodeJS.Timeout | undefined;
  private compaction: Promise<void> | undefined;

  private constructor(
    private readonly db: Low<StoreData>,
    private readonly journal: Journal,
    jobs: Map<string, JobRecord>,
    private readonly jobsDir: string,
  ) {
    this.committed = jobs;
  }

  /**
   * Opens the store and never throws over what it finds on disk but for one case: a snapshot or journal that
   * cannot be read is kept aside (`<name>.damaged-<time>`), one with damaged records is copied aside and the
   * damaged records are left out; each case is logged with the name of the copy. A snapshot that cannot be
   * read is rebuilt from the journal and the records the job folders keep (`jobsDir`, by default `jobs`
   * beside the snapshot); when a job folder holds no record, it throws UnrebuildableStoreError, leaving the
   * snapshot in place, rather than start without jobs whose files are on disk.
   */
  static async open(file: string, log: Logger, jobsDir = path.join(path.dirname(file), 'jobs')): Promise<JobStore> {
    const db = new Low<StoreData>(new JSONFile<StoreData>(file), { version: 1, jobs: [] });
    const snapshot = await readSnapshot(file);
    const stored = 'jobs' in snapshot ? snapshot.jobs : [];
    const valid = stored.filter(isJobRecord);
    const invalid = stored.length - valid.length;
    const firstProblem = invalid > 0 ? recordProblem(stored.find((job) => !isJobRecord(job))) : undefined;
    const journal = new Journal(`${file}.journal`);
    let entries: JournalEntry[] = [];
    try {
      const read = await journal.readAll();
      entries = read.entries;
      if (read.damaged > 0) {
        const kept = await keepAside(journal.file, 'copy');
        log.error(`The job journal ${journal.file} held ${read.damaged} damaged lines; ${kept} and left them out.`);
      }
    } catch (error) {
      const kept = await keepAside(journal.file, 'move');
      log.error(
        `The job journal ${journal.file} could not be read (${(error as Error).message}); ${kept} and started without its changes.`,
      );
    }
    entries = entries.map((entry) => ('put' in entry ? { put: upgradeStored(entry.put) } : entry));
    if ('damage' in snapshot) {
      // A folder where the snapshot belongs is moved aside: the rebuilt snapshot is written in its place.
      const isFolder = (await fs.stat(file).catch(() => undefined))?.isDirectory() ?? false;
      const kept = await keepAside(file, isFolder ? 'move' : 'copy');
      const rebuilt = await rebuildJobs(file, jobsDir, entries);
      const jobs = new Map(rebuilt.jobs.map((job) => [job.id, withDefaults(upgradeStored(job))]));
      const store = new JobStore(db, journal, jobs, jobsDir);
      // The rebuilt jobs become the snapshot, and the journal they include is emptied.
      await store.flush();
      log.error(
        `The job store ${file} could not be read (${snapshot.damage}); ${kept} and rebuilt ${jobs.size} jobs from the journal and ${rebuilt.fromFolders} job folders.`,
      );
      return store;
    }
    const replayed = replayStore(valid.map(upgradeStored), entries);
    if (invalid + replayed.duplicates > 0) {
      const kept = await keepAside(file, 'copy');
      const what = [
        invalid > 0 ? `${invalid} damaged job records (the first: ${firstProblem})` : '',
        replayed.duplicates > 0
          ? `${replayed.duplicates} second records of one job id (a finished record was kept where there was one)`
          : '',
      ]
        .filter(Boolean)
        .join(' and ');
      log.error(`The job store ${file} held ${what}; ${kept} and left them out.`);
    }
    if (replayed.changedAfterEnd > 0) {
      const kept = await keepAside(journal.file, 'copy');
      log.error(
        `The job journal ${journal.file} held ${replayed.changedAfterEnd} changes to jobs that had already finished; ${kept} and left them out (a finished job never changes).`,
      );
    }
    for (const [id, job] of replayed.jobs) replayed.jobs.set(id, withDefaults(job));
    return new JobStore(db, journal, replayed.jobs, jobsDir);
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

  get size(): number {
    return this.committed.size;
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
    this.committed.set(id, { ...job, progress: Math.max(job.progress, Math.min(99, progress)), phase });
    this.progressed.add(id);
    this.progressTimer ??= setTimeout(() => {
      this.progressTimer = undefined;
      void this.writeProgress().catch(() => undefined);
    }, PROGRESS_FLUSH_MS);
  }

  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.committed.delete(id);
    await this.append(ids.map((id) => ({ remove: id })));
    for (const id of ids) this.shown.delete(id);
  }

  /** Writes everything and folds the journal into the snapshot (on shutdown). */
  async flush(): Promise<void> {
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    await this.writeProgress();
    await this.journal.compact(() => this.writeSnapshot());
  }

  private async commit(id: string, next: JobRecord): Promise<void> {
    if (!this.pendingWrites.has(id)) this.shown.set(id, this.committed.get(id));
    this.pendingWrites.set(id, (this.pendingWrites.get(id) ?? 0) + 1);
    this.committed.set(id, next);
    this.progressed.delete(id);
    try {
      await this.append([{ put: next }]);
      // The copy a damaged snapshot is rebuilt from; the journal already holds the change, so a failure here loses nothing.
      await writeFolderRecord(this.jobsDir, next).catch(() => undefined);
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

  private writeProgress(): Promise<void> {
    const entries: JournalEntry[] = [];
    for (const id of this.progressed) {
      const job = this.committed.get(id);
      if (job) entries.push({ put: job });
    }
    this.progressed.clear();
    return this.append(entries);
  }

  private async append(entries: JournalEntry[]): Promise<void> {
    if (entries.length > 0) await this.journal.append(entries);
    if (!this.compaction && this.journal.lines > Math.max(MIN_LINES_BEFORE_COMPACTION, this.committed.size)) {
      this.compaction = this.journal
        .compact(() => this.writeSnapshot())
        .catch(() => undefined)
        .finally(() => (this.compaction = undefined));
    }
  }

  private writeSnapshot(): Promise<void> {
    this.db.data = { version: 1, jobs: [...this.committed.values()] };
    return this.db.write();
  }
}

/** Moves or copies a damaged file to `<file>.damaged-<time>`; says what it did, for the log. */
async function keepAside(file: string, how: 'move' | 'copy'): Promise<string> {
  const kept = `${file}.damaged-${Date.now()}`;
  try {
    if (how === 'move') await fs.rename(file, kept);
    else await fs.cp(file, kept, { recursive: true });
    return `kept it as ${kept}`;
  } catch (error) {
    return `could not keep a copy (${(error as Error).message})`;
  }
}
