import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { EngineTask } from '../engine-api/protocol';
import { jobKindOf } from './kinds';
import { JOB_LEXICON_FILE } from './kinds/tts';
import { FOLDER_RECORD_FILE } from './store-rebuild';
import type { JobRecord } from './types';

// Each kind names its own files (src/jobs/kinds/); the lexicon's is kept through every end of a job.
export { JOB_LEXICON_FILE };

/** Where each job keeps its files: one folder per job under `<data-dir>/jobs/`. */
export class JobFiles {
  readonly root: string;

  constructor(readonly dataDir: string) {
    this.root = path.join(dataDir, 'jobs');
  }

  dir(id: string): string {
    return path.join(this.root, id);
  }

  file(id: string, name: string): string {
    return path.join(this.root, id, name);
  }

  async create(id: string): Promise<string> {
    const dir = this.dir(id);
    await fs.mkdir(dir, { recursive: true });
    return dir;
  }

  async remove(id: string): Promise<void> {
    await fs.rm(this.dir(id), { recursive: true, force: true });
  }

  /**
   * Removes everything in the job's folder except its finished output, the lexicon entries it spoke with and
   * the store's copy of its record (inputs, partial files go): the entries stay readable with the job, as they were when the store held them.
   */
  async keepOnlyOutput(job: JobRecord): Promise<void> {
    const names = await fs.readdir(this.dir(job.id)).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name !== job.outputFile && name !== JOB_LEXICON_FILE && name !== FOLDER_RECORD_FILE)
        .map((name) => fs.rm(path.join(this.dir(job.id), name), { recursive: true, force: true })),
    );
  }

  /** The output a finished job keeps in its folder; null for a kind whose output is where the user asked (a book, translation or dub). */
  finishedOutputFile(job: JobRecord): string | null {
    return jobKindOf(job.kind).outputFile(job);
  }

  /** The engine's view of a job: absolute paths and the options it needs. */
  task(job: JobRecord): EngineTask {
    return jobKindOf(job.kind).task(job, this);
  }
}
