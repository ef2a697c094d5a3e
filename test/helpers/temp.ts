import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

export async function tempDir(prefix = 'speech-studio-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/**
 * Scratch folders for one test file: call it at the top level; each call of the returned function makes a
 * new folder, and all of them are removed when the file's tests end.
 */
export function useWorkDirs(prefix?: string): () => Promise<string> {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  return async () => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
}
