import type { Queryable } from '../db/database';

/**
 * Portal sign-in attempts counted per subject (`account:<name>`, `address:<ip>`) in fixed windows, in the
 * database, so the throttle holds however many relay instances share the work.
 */

/** Counts one more attempt for each subject; returns the counts including it, in the order given. */
export async function countSignInAttempt(db: Queryable, subjects: readonly string[], windowStart: number): Promise<number[]> {
  const counts: number[] = [];
  for (const subject of subjects) {
    const [row] = await db.query<{ attempts: number }>(
      `INSERT INTO sign_in_windows (subject, window_start, attempts) VALUES ($1, $2, 1)
       ON CONFLICT (subject, window_start) DO UPDATE SET attempts = sign_in_windows.attempts + 1 RETURNING attempts`,
      [subject, windowStart],
    );
    counts.push(row.attempts);
  }
  return counts;
}

/** Forgets the attempts of these subjects (a successful sign-in, a new password). */
export async function clearSignInAttempts(db: Queryable, subjects: readonly string[]): Promise<void> {
  await db.query('DELETE FROM sign_in_windows WHERE subject = ANY($1::text[])', [subjects]);
}

/** Forgets windows that started before `before`. */
export async function dropSignInWindows(db: Queryable, before: number): Promise<void> {
  await db.query('DELETE FROM sign_in_windows WHERE window_start < $1', [before]);
}

/**
 * Failed portal sign-ins allowed in one window before the next attempts are refused (429) until it ends:
 * per address, and per account name from all addresses together (distributed guessing). The numbers and
 * why: docs/relay-and-job-store.md.
 */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perAddress: 10, perAccount: 20 } as const;

/** Subjects as stored: encoded, so any name a form carries (NUL included) is a storable key. */
export const accountSubject = (username: string): string => `account:${encodeURIComponent(username.slice(0, 100))}`;
export const addressSubject = (address: string): string => `address:${encodeURIComponent(address.slice(0, 100))}`;
