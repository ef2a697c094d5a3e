import { constants, promises as fs } from 'node:fs';
import { isJournalEntry } from './record-check';
import type { JournalEntry } from './types';

export type { JournalEntry };

/**
 * An append-only file of job changes beside the lowdb snapshot. Appending one line costs the same with
 * 100 or 100 000 jobs in history, where rewriting the snapshot grows with it; the store folds the journal
 * into the snapshot once it is long enough that the rewrite pays for itself.
 */
export class Journal {
  private chain: Promise<void> = Promise.resolve();
  private pending: string[] = [];
  lines = 0;
  /** The bytes of complete lines: where the next append goes once a failed one left part of its line behind. */
  private completeBytes = 0;
  /** A write failed, perhaps after writing part of its lines (a full disk): the tail is cut before the next one. */
  private tornTail = false;

  constructor(readonly file: string) {}

  /**
   * Reads every complete entry. A line cut short by a crash (only ever the last one) is dropped quietly and
   * cut from the file, so the next append starts a line of its own instead of being glued to it; any other
   * line that is not a valid entry is counted in `damaged`, so the store can say so.
   */
  async readAll(): Promise<{ entries: JournalEntry[]; damaged: number }> {
    // A journal swapped for a link (or a device, a FIFO) is not ours: the store moves it aside rather than
    // read from, append to and truncate whatever it points at, outside the data directory.
    const info = await fs.lstat(this.file).catch(() => undefined);
    if (info && !info.isFile())
      throw new Error(info.isSymbolicLink() ? 'it is a symbolic link' : 'it is not a regular file');
    const text = await fs.readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const entries: JournalEntry[] = [];
    let damaged = 0;
    let endsWithEntry = false;
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (!line) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        // A torn write from a crash is the last line, without its newline: never shown to anyone, safe to drop.
        if (index !== lines.length - 1) damaged++;
        continue;
      }
      if (isJournalEntry(entry)) entries.push(entry);
      else damaged++;
      endsWithEntry = index === lines.length - 1 && isJournalEntry(entry);
    }
    this.lines = entries.length;
    // A last entry whole but for its newline (the crash came between the two) is kept, and its line ended.
    if (endsWithEntry) await writeNoFollow(this.file, '\n', constants.O_APPEND);
    const complete = endsWithEntry ? `${text}\n` : text.slice(0, text.lastIndexOf('\n') + 1);
    this.completeBytes = Buffer.byteLength(complete, 'utf8');
    this.tornTail = complete.length < text.length;
    return { entries, damaged };
  }

  /** Appends entries; writes issued while one is under way are batched into the next append. */
  append(entries: readonly JournalEntry[]): Promise<void> {
    for (const entry of entries) this.pending.push(`${JSON.stringify(entry)}\n`);
    this.lines += entries.length;
    return this.enqueue(() => this.writePending());
  }

  /**
   * Folds the journal into the snapshot: in line with the appends, so every change appended before it is in
   * the snapshot, and every change made while the snapshot is written is appended after the truncation.
   */
  compact(writeSnapshot: () => Promise<void>): Promise<void> {
    return this.enqueue(async () => {
      await this.writePending();
      await writeSnapshot();
      await writeNoFollow(this.file, '', constants.O_TRUNC);
      this.completeBytes = 0;
      this.tornTail = false;
      this.lines = this.pending.length;
    });
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending.join('');
    this.pending = [];
    try {
      await writeNoFollow(this.file, batch, constants.O_APPEND, this.tornTail ? this.completeBytes : undefined);
    } catch (error) {
      this.tornTail = true;
      throw error;
    }
    this.tornTail = false;
    this.completeBytes += Buffer.byteLength(batch, 'utf8');
  }

  /** Runs `step` after the previous one, whether that one failed or not; the caller sees its own failure. */
  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.chain.catch(() => undefined).then(step);
    this.chain = next;
    return next;
  }

  /** Waits for every append issued so far. */
  settled(): Promise<void> {
    return this.chain.catch(() => undefined);
  }
}

/**
 * Appends to or truncates the journal itself, never a file a link at its name points to (ELOOP instead);
 * `cutTo`: first cut the file to this many bytes (a torn tail).
 */
async function writeNoFollow(file: string, text: string, mode: number, cutTo?: number): Promise<void> {
  const handle = await fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | mode, 0o644);
  try {
    if (cutTo !== undefined) await handle.truncate(cutTo);
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}
