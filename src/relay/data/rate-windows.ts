import type { Queryable } from '../db/database';

/**
 * Requests per key over a sliding window, counted in the database in one-second buckets so a limit holds
 * however many relay instances share the work: the window is the buckets of the last `windowMs`, so no
 * boundary lets twice the limit through (as fixed one-minute windows did).
 */

const BUCKET_MS = 1_000;
const bucketOf = (now: number): number => now - (now % BUCKET_MS);

export interface RequestCount {
  /** Requests in the window ending now, this one included (refused ones are taken back). */
  requests: number;
  /** Whether this request is over the limit, and so refused and not counted. */
  refused: boolean;
  /** When refused: the seconds until the oldest requests of the window leave it. */
  retryAfterSeconds: number;
}

/**
 * Counts a request of `keyId` at `now` against `limit` requests per `windowMs`. A refused request is taken
 * back, so a client that keeps knocking does not push its own wait further out.
 */
export async function countRequest(
  db: Queryable,
  keyId: string,
  now: number,
  limit: number,
  windowMs: number,
): Promise<RequestCount> {
  await db.query(
    `INSERT INTO rate_windows (key_id, window_start, requests) VALUES ($1, $2, 1)
     ON CONFLICT (key_id, window_start) DO UPDATE SET requests = rate_windows.requests + 1`,
    [keyId, bucketOf(now)],
  );
  const [row] = await db.query<{ requests: number; oldest: number | string | null }>(
    `SELECT COALESCE(sum(requests), 0)::int AS requests, min(window_start) AS oldest FROM rate_windows
     WHERE key_id = $1 AND window_start > $2 AND requests > 0`,
    [keyId, now - windowMs],
  );
  if (row.requests <= limit) return { requests: row.requests, refused: false, retryAfterSeconds: 0 };
  await db.query(
    'UPDATE rate_windows SET requests = requests - 1 WHERE key_id = $1 AND window_start = $2 AND requests > 0',
    [keyId, bucketOf(now)],
  );
  const oldest = Number(row.oldest ?? bucketOf(now));
  return {
    requests: row.requests - 1,
    refused: true,
    retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
  };
}

/** Forgets buckets that started before `before`. */
export async function dropRateWindows(db: Queryable, before: number): Promise<void> {
  await db.query('DELETE FROM rate_windows WHERE window_start < $1', [before]);
}
