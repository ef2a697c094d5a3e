/**
 * Tools the fault and hostile-input suites share: FIFOs that hold the engine in a chosen phase, a look
 * at /proc for processes that outlived their job, a logger that keeps what it was told.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../src/util/log';
import { testModel } from '../helpers/test-models';

export const SYNTHETIC_WHISPER = 'ggml-synthetic-random.bin';

export async function installSyntheticWhisper(dataDir: string): Promise<string> {
  const dir = path.join(dataDir, 'models', 'whisper');
  await mkdir(dir, { recursive: true });
  const link = path.join(dir, SYNTHETIC_WHISPER);
  await rm(link, { force: true });
  await symlink(testModel('whisper', SYNTHETIC_WHISPER), link);
  return link;
}

/** A logger that keeps every line, for asserting what the server said. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

/** Replaces `file` with a named pipe: whoever opens it for reading waits until a writer comes. */
export async function replaceWithFifo(file: string): Promise<void> {
  await rm(file, { force: true });
  execFileSync('mkfifo', [file]);
}

/**
 * Waits until some process has opened `fifo` for reading, then holds the write end open without writing:
 * the reader (the engine or its ffprobe) is then stuck in a known place until the returned close() runs.
 * Opening the write end without blocking fails with ENXIO for as long as nobody reads.
 */
export async function holdFifoReader(fifo: string, timeoutMs = 30_000): Promise<{ close(): void }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      let open = true;
      return {
        close: () => {
          if (open) closeSync(fd);
          open = false;
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    if (Date.now() > deadline) throw new Error(`Nobody opened ${fifo} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Pids of live processes whose command line or open files mention `dir` (Linux /proc). */
export async function processesUsing(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    const targets = await Promise.all(fds.map((fd) => readlink(`/proc/${entry}/fd/${fd}`).catch(() => '')));
    if (cmdline.includes(dir) || targets.some((target) => target.startsWith(dir))) found.push(Number(entry));
  }
  return found;
}

/** Resident set size of a process in bytes (Linux), or 0 once it is gone. */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

/** Every file under `root`, as paths relative to it (symlinks listed, not followed). */
export async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .map((e) => path.relative(root, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)))
    .sort();
}

export const onLinux = process.platform === 'linux';

/** A WAV of `seconds` of silence at 1 sample a second: a few KB that decode to 32 000 bytes a second. */
export async function oneHertzWav(file: string, seconds: number): Promise<string> {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + seconds, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(1, 24); // 1 Hz
  header.writeUInt32LE(1, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34); // 8-bit: 0x80 is silence
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(seconds, 40);
  await writeFile(file, Buffer.concat([header, Buffer.alloc(seconds, 0x80)]));
  return file;
}

export { childrenOf, isAlive } from '../helpers/processes';
