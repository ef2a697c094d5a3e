/**
 * Download progress for a terminal: one line rewritten in place when stderr is a TTY, otherwise (CI logs,
 * pipes) a plain line every few seconds so the log shows the download is alive without flooding it.
 */
import path from 'node:path';
import type { InstallProgress } from '../models/model-manager';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Decimal units, as Hugging Face and GitHub show sizes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  do {
    value /= 1000;
    unit++;
  } while (value >= 1000 && unit < units.length - 1);
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function describeProgress(p: InstallProgress): string {
  const parts = [p.modelId];
  if (p.fileCount > 1) parts.push(`[${p.fileIndex + 1}/${p.fileCount}]`);
  // An imported file still being identified goes by its own name.
  if (path.posix.basename(p.file) !== p.modelId) parts.push(path.posix.basename(p.file));
  if (p.phase === 'verifying') return `${parts.join(' ')}  checking sha256…`;
  if (p.phase === 'copying') parts.push('copying');
  parts.push(p.totalBytes !== null ? `${formatBytes(p.bytes)} / ${formatBytes(p.totalBytes)}` : formatBytes(p.bytes));
  if (p.percent !== null) parts.push(`${p.percent.toFixed(0)}%`);
  if (p.bytesPerSecond > 0) parts.push(`${formatBytes(p.bytesPerSecond)}/s`);
  if (p.etaSeconds !== null && p.bytesPerSecond > 0) parts.push(`ETA ${formatDuration(p.etaSeconds)}`);
  if (p.resumedFrom > 0) parts.push(`(resumed at ${formatBytes(p.resumedFrom)})`);
  return parts.join('  ');
}

export class ProgressLine {
  private lastPrinted = 0;
  private lastKey = '';
  private open = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly everyMs = 5_000,
  ) {}

  update(progress: InstallProgress): void {
    const text = describeProgress(progress);
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[2K${text}`);
      this.open = true;
      return;
    }
    const key = `${progress.modelId}:${progress.fileIndex}:${progress.phase}`;
    const now = Date.now();
    if (key === this.lastKey && now - this.lastPrinted < this.everyMs) return;
    this.lastKey = key;
    this.lastPrinted = now;
    this.stream.write(`${text}\n`);
  }

  /** Ends the in-place line so the next message starts on its own line. */
  done(): void {
    if (this.open) this.stream.write('\r\x1b[2K');
    this.open = false;
  }
}
