/**
 * Reads and drops the rest of a request body before an answer that closes the connection: a client that
 * sends its whole body before it reads the answer (most upload clients) would otherwise meet a closed socket
 * (EPIPE) instead of the error. Bounded in bytes and time, so a client cannot hold the server with it.
 */
import type { IncomingMessage } from 'node:http';

export interface DrainLimits {
  /** Stop waiting once this many more bytes arrived. */
  maxBytes: number;
  /** Stop waiting after this long, whatever arrived. */
  maxMs: number;
}

/** Resolves when the body has ended, the client went away, or a limit was reached; never rejects. */
export function drainRequest(req: IncomingMessage, limits: DrainLimits): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let drained = 0;
    const done = (): void => {
      clearTimeout(timer);
      req.off('data', counted).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const counted = (chunk: Buffer): void => {
      drained += chunk.length;
      if (drained > limits.maxBytes) done();
    };
    const timer = setTimeout(done, limits.maxMs);
    req.on('data', counted).on('end', done).on('close', done).on('error', done);
    req.unpipe();
    req.resume();
  });
}
