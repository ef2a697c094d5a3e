import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';

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
  // Each thread's children list is one small read; a scan of every process in /proc is hundreds, too slow
  // under load to catch a short-lived child. Kernels built without that list get the scan.
  const listed = await childrenListed(pid);
  if (listed) return listed;
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) found.push(Number(entry));
  }
  return found;
}

async function childrenListed(pid: number): Promise<number[] | undefined> {
  try {
    const threads = await readdir(`/proc/${pid}/task`);
    const lists = await Promise.all(threads.map((thread) => readFile(`/proc/${pid}/task/${thread}/children`, 'utf8')));
    return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
  } catch {
    return undefined;
  }
}

/** The TCP ports `pid` listens on (Linux /proc: its socket inodes matched against the LISTEN rows). */
export async function listeningSockets(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const row of rows) {
      const columns = row.trim().split(/\s+/);
      // columns: sl local_address rem_address st … inode (index 9); st 0A is LISTEN.
      if (columns[3] === '0A' && inodes.has(columns[9])) ports.push(parseInt(columns[1].split(':')[1], 16));
    }
  }
  return ports;
}
