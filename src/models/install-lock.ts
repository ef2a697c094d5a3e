/**
 * A lock file per model in `models/.partial/`, so the editor and a terminal installing the same model at
 * once do not write into the same partial file. A lock whose process is gone is stale and taken over.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ModelError } from './model-error';
import { stagingRoot } from './model-paths';

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock for `id` and resolves with its release. */
export async function acquireInstallLock(dataDir: string, id: string): Promise<() => Promise<void>> {
  const lock = path.join(stagingRoot(dataDir), `${id}.lock`);
  await mkdir(path.dirname(lock), { recursive: true });
  try {
    await writeFile(lock, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
    if (isRunning(holder)) {
      throw new ModelError('ALREADY_INSTALLING', `Another Speech Studio process (pid ${holder}) is installing ${id}; wait for it or stop it.`);
    }
    await writeFile(lock, String(process.pid));
  }
  return () => rm(lock, { force: true });
}
