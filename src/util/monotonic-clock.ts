/**
 * Wall-clock milliseconds that never go backwards within a process: the time at start-up plus the monotonic
 * time elapsed since (performance.now), so a clock set back (NTP, a user, a suspended VM) cannot make a job
 * finish before it started. Across restarts the wall clock is read afresh.
 */
import { performance } from 'node:perf_hooks';

const startedAt = Date.now() - performance.now();

/** Milliseconds since the epoch, as Date.now() at start-up, moving only forward. */
export function monotonicNow(): number {
  return Math.round(startedAt + performance.now());
}
