import type { Queryable } from '../db/database';

/**
 * Portal sign-in attempts counted per subject (`account:<name>`, `address:<ip>`) over a sliding window, in
 * the database, so the throttle holds however many relay instances share the work.
 */

/** Attempts are counted in one-minute buckets; a window is the buckets of its last `windowMs`. */
const BUCKET_MS = 60_000;
export const bucketOf = (now: number): number => now - (now % BUCKET_MS);

/**
 * Counts one more attempt for `subject` and returns the attempts in the window ending `now` (this one
 * included), with the start of the oldest bucket that holds any.
 */
export async function countSignInAttempt(
  db: Queryable,
  subject: string,
  now: number,
  windowMs: number,
): Promise<{ attempts: number; oldest: number }> {
  await db.query(
    `INSERT INTO sign_in_windows (subject, window_start, attempts) VALUES ($1, $2, 1)
     ON CONFLICT (subject, window_start) DO UPDATE SET attempts = sign_in_windows.attempts + 1`,
    [subject, bucketOf(now)],
  );
  const [row] = await db.query<{ attempts: number; oldest: number | null }>(
    `SELECT COALESCE(sum(attempts), 0)::int AS attempts, min(window_start) AS oldest FROM sign_in_windows
     WHERE subject = $1 AND window_start > $2 AND attempts > 0`,
    [subject, now - windowMs],
  );
  return { attempts: row.attempts, oldest: row.oldest ?? bucketOf(now) };
}

/** Takes back an attempt counted at `now` (one that was refused, so no password was checked). */
export async function withdrawSignInAttempt(db: Queryable, subject: string, now: number): Promise<void> {
  await db.query(
    'UPDATE sign_in_windows SET attempts = attempts - 1 WHERE subject = $1 AND window_start = $2 AND attempts > 0',
    [subject, bucketOf(now)],
  );
}

/** Forgets the attempts of these subjects (a successful sign-in, a new password). */
export async function clearSignInAttempts(db: Queryable, subjects: readonly string[]): Promise<void> {
  await db.query('DELETE FROM sign_in_windows WHERE subject = ANY($1::text[])', [subjects]);
}

/** Forgets buckets that started before `before`. */
export async function dropSignInWindows(db: Queryable, before: number): Promise<void> {
  await db.query('DELETE FROM sign_in_windows WHERE window_start < $1', [before]);
}

/**
 * Sign-in attempts allowed in any 15 minutes before the next ones are refused (429) until the oldest leave
 * the window: per address, and per account name from all addresses together (distributed guessing). The numbers and
 * why: docs/relay-and-job-store.md.
 */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perAddress: 10, perAccount: 20 } as const;

/** Subjects as stored: encoded, so any name a form carries (NUL included) is a storable key. */
export const accountSubject = (username: string): string => `account:${encodeURIComponent(username.slice(0, 100))}`;
export const addressSubject = (address: string): string => `address:${encodeURIComponent(address.slice(0, 100))}`;
