/**
 * Speed and time left from a sliding window of byte counts, so one slow second does not swing the ETA
 * and a stall shows as a falling speed rather than a frozen one.
 */
export interface TransferProgress {
  bytes: number;
  /** Null until the size is known (catalog or Content-Length). */
  totalBytes: number | null;
  percent: number | null;
  bytesPerSecond: number;
  etaSeconds: number | null;
}

const WINDOW_MS = 5_000;

export class TransferRate {
  private samples: Array<{ at: number; bytes: number }> = [];

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Records the running total and returns the progress it implies. */
  update(bytes: number, totalBytes: number | null): TransferProgress {
    const at = this.now();
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[0].at > WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const elapsed = (at - first.at) / 1000;
    const bytesPerSecond = elapsed > 0 ? Math.max(0, (bytes - first.bytes) / elapsed) : 0;
    const remaining = totalBytes === null ? null : Math.max(0, totalBytes - bytes);
    return {
      bytes,
      totalBytes,
      percent: totalBytes ? Math.min(100, (bytes / totalBytes) * 100) : null,
      bytesPerSecond,
      etaSeconds: remaining === null ? null : remaining === 0 ? 0 : bytesPerSecond > 0 ? remaining / bytesPerSecond : null,
    };
  }

  /** Forgets the history, e.g. after the download restarted from zero. */
  reset(): void {
    this.samples = [];
  }
}

/**
 * A progress callback for a running total, called at most once per `intervalMs` unless forced (the first and
 * last report): what a download and an import's copy both report.
 */
export function throttledProgress(onProgress: ((progress: TransferProgress) => void) | undefined, intervalMs = 250): (bytes: number, total: number | null, force?: boolean) => void {
  const rate = new TransferRate();
  let last = 0;
  return (bytes, total, force = false) => {
    const now = Date.now();
    if (!onProgress || (!force && now - last < intervalMs)) return;
    last = now;
    onProgress(rate.update(bytes, total));
  };
}
