import type { Queryable } from '../db/database';

/**
 * Requests per key in fixed windows, counted in the database so a limit holds however many relay
 * instances share the work. Returns the count including this request.
 */
export async function countRequest(db: Queryable, keyId: string, windowStart: number): Promise<number> {
  const [row] = await db.query<{ requests: number }>(
    `INSERT INTO rate_windows (key_id, window_start, requests) VALUES ($1, $2, 1)
     ON CONFLICT (key_id, window_start) DO UPDATE SET requests = rate_windows.requests + 1 RETURNING requests`,
    [keyId, windowStart],
  );
  return row.requests;
}

/** Forgets windows that started before `before`. */
export async function dropRateWindows(db: Queryable, before: number): Promise<void> {
  await db.query('DELETE FROM rate_windows WHERE window_start < $1', [before]);
}
