import { isActive, type JobRecord, type JournalEntry } from './types';

/** The jobs rebuilt from disk, and how many records were refused on the way (see `replayStore`). */
export interface Replayed {
  jobs: Map<string, JobRecord>;
  /** Second records of one id in the snapshot. */
  duplicates: number;
  /** Journal lines that would have changed a job after it finished. */
  changedAfterEnd: number;
}

/**
 * Rebuilds the jobs from the snapshot and then the journal, refusing what the job service never writes, so
 * a hand-edited or damaged store cannot make a finished job run again: the snapshot holds one record per
 * id (of two, a finished one wins, else the first), and a finished job never changes (decisions: terminal
 * states are final), so a later line that would change it is refused. A removal always applies.
 */
export function replayStore(snapshot: readonly JobRecord[], journal: readonly JournalEntry[]): Replayed {
  const jobs = new Map<string, JobRecord>();
  let duplicates = 0;
  let changedAfterEnd = 0;
  for (const record of snapshot) {
    const seen = jobs.get(record.id);
    if (seen) {
      duplicates++;
      if (isActive(seen.status) && !isActive(record.status)) jobs.set(record.id, record);
    } else {
      jobs.set(record.id, record);
    }
  }
  for (const entry of journal) {
    if ('remove' in entry) {
      jobs.delete(entry.remove);
      continue;
    }
    const seen = jobs.get(entry.put.id);
    if (seen && !isActive(seen.status)) {
      // The same finished record written twice changes nothing; anything else would.
      if (JSON.stringify(seen) !== JSON.stringify(entry.put)) changedAfterEnd++;
      continue;
    }
    jobs.set(entry.put.id, entry.put);
  }
  return { jobs, duplicates, changedAfterEnd };
}
