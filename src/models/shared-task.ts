/**
 * One piece of work that several callers can wait on: the second `install` of a model joins the first
 * download instead of starting another. Each caller has its own progress listener and its own cancel; the
 * work itself is cancelled only when every caller has cancelled.
 */
import { cancelledError } from './model-error';

export interface JoinOptions<P> {
  signal?: AbortSignal;
  onProgress?: (progress: P) => void;
}

export class SharedTask<T, P> {
  readonly promise: Promise<T>;
  private readonly controller = new AbortController();
  private readonly listeners = new Set<(progress: P) => void>();
  private callers = 0;
  private settled = false;

  constructor(work: (signal: AbortSignal, emit: (progress: P) => void) => Promise<T>) {
    this.promise = work(this.controller.signal, (progress) => {
      for (const listener of this.listeners) listener(progress);
    });
    this.promise.then(
      () => (this.settled = true),
      () => (this.settled = true),
    );
  }

  /** Waits for the work as one more caller. */
  join(options: JoinOptions<P> = {}): Promise<T> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(cancelledError());
    this.callers++;
    if (onProgress) this.listeners.add(onProgress);
    return new Promise<T>((resolve, reject) => {
      const leave = (): void => {
        if (onProgress) this.listeners.delete(onProgress);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        leave();
        this.callers--;
        if (this.callers > 0 || this.settled) return reject(cancelledError());
        // The last caller left: stop the work, and answer once it has cleaned up after itself.
        this.controller.abort();
        const rejectCancelled = (): void => reject(cancelledError());
        this.promise.then(rejectCancelled, rejectCancelled);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
        (value) => {
          leave();
          resolve(value);
        },
        (error: unknown) => {
          leave();
          reject(signal?.aborted ? cancelledError() : error);
        },
      );
    });
  }

  /** Cancels the work for every caller (used by remove). */
  cancel(): void {
    if (!this.settled) this.controller.abort();
  }
}
