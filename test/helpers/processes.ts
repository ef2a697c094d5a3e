import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * Whether `pid` still runs (signal 0 checks without signalling). A zombie does not: an engine orphaned by
 * a killed server is adopted by init, which may reap it long after it ended, and signal 0 still reaches it.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Pids of the live children of `pid` (Linux /proc): the engine processes of a server. */
export async function childrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) found.push(Number(entry));
  }
  return found;
}
