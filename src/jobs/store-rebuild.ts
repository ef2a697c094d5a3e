/**
 * What the store reads when it opens, and how it rebuilds the jobs when its snapshot is damaged: the snapshot
 * read as JSON (an editor's byte-order mark tolerated), and a copy of each job's record in its own folder
 * (`<jobs>/<id>/job.json`, rewritten at every change the store commits), so a snapshot cut short, emptied or
 * replaced by `null` loses no job whose folder is on disk. A job folder without a record cannot be rebuilt:
 * the store then refuses to open rather than start without jobs whose outputs are still there.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isJobRecord } from './record-check';
import { replayStore } from './store-replay';
import { isActive, type JobRecord, type JournalEntry } from './types';

/** The record each job folder keeps of its job. */
export const FOLDER_RECORD_FILE = 'job.json';

export type SnapshotRead = { missing: true } | { jobs: unknown[] } | { damage: string };

/** The snapshot's list of jobs, `missing` when there is no file, or what makes it unreadable. */
export async function readSnapshot(file: string): Promise<SnapshotRead> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { missing: true };
    return { damage: code ?? (error as Error).message };
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { damage: `it is not JSON: ${(error as Error).message}` };
  }
  const jobs = (data as { jobs?: unknown } | null)?.jobs;
  if (!Array.isArray(jobs)) return { damage: 'it has no list of jobs' };
  return { jobs };
}

/** Writes the job's record into its folder (written aside, then renamed: never half a record); no folder, no record. */
export async function writeFolderRecord(jobsDir: string, job: JobRecord): Promise<void> {
  const file = path.join(jobsDir, job.id, FOLDER_RECORD_FILE);
  const temporary = `${file}.writing`;
  try {
    await fs.writeFile(temporary, `${JSON.stringify(job)}\n`, { flag: 'w' });
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    // A job whose folder is already gone (removed, or a store without job folders) has nothing to keep.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A snapshot that could not be rebuilt: the folders whose jobs have no record anywhere. */
export class UnrebuildableStoreError extends Error {
  constructor(
    readonly file: string,
    readonly folders: readonly string[],
  ) {
    super(
      `The job store ${file} is damaged and ${folders.length} job folder(s) hold no record to rebuild their jobs from (${folders.slice(0, 5).join(', ')}${folders.length > 5 ? ', …' : ''}). Restore ${path.basename(file)} from the copy kept beside it, or move those folders out of ${path.dirname(folders[0])}, and start again.`,
    );
    this.name = 'UnrebuildableStoreError';
  }
}

/**
 * The jobs rebuilt from the journal and the job folders, for a snapshot that could not be read: each folder's
 * record, unless the journal removed the job or holds a finished record the folder missed.
 */
export async function rebuildJobs(
  file: string,
  jobsDir: string,
  journal: readonly JournalEntry[],
): Promise<{ jobs: JobRecord[]; fromFolders: number }> {
  const replayed = replayStore([], journal).jobs;
  const removed = new Set(journal.flatMap((entry) => ('remove' in entry ? [entry.remove] : [])));
  const names = await fs.readdir(jobsDir).catch(() => [] as string[]);
  const unrebuildable: string[] = [];
  let fromFolders = 0;
  for (const name of names) {
    const folder = path.join(jobsDir, name);
    if (!(await fs.stat(folder).catch(() => undefined))?.isDirectory()) continue;
    const text = await fs.readFile(path.join(folder, FOLDER_RECORD_FILE), 'utf8').catch(() => undefined);
    let record: unknown;
    try {
      record = text === undefined ? undefined : JSON.parse(text);
    } catch {
      record = undefined;
    }
    if (!isJobRecord(record) || record.id !== name) {
      if (!replayed.has(name) && !removed.has(name)) unrebuildable.push(folder);
      continue;
    }
    const known = replayed.get(name);
    // A finished record in the journal that the folder's copy missed (its write failed) wins.
    if (known && !isActive(known.status) && isActive(record.status)) continue;
    if (!known && removed.has(name)) continue;
    replayed.set(name, record);
    fromFolders++;
  }
  if (unrebuildable.length > 0) throw new UnrebuildableStoreError(file, unrebuildable);
  return { jobs: [...replayed.values()], fromFolders };
}
