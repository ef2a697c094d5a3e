/** What /metrics reports, read from the database: so every instance of a relay reports the whole relay. */
import { JOB_STATUSES } from '../../contract/openapi-schemas';
import type { JobStatus } from '../../contract/openapi';
import type { Queryable } from '../db/database';

/** Every status, so a state with no jobs is reported as 0 rather than missing. */
export const JOB_STATES: readonly JobStatus[] = JOB_STATUSES;
export const JOB_KINDS = ['tts', 'stt'] as const;

/** Upper bounds (seconds) of the dispatch latency histogram's buckets. */
export const DISPATCH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800] as const;

export interface DispatchLatency {
  /** Cumulative counts, one per DISPATCH_BUCKETS entry. */
  buckets: number[];
  count: number;
  sumSeconds: number;
}

export interface RelayMetrics {
  jobs: Array<{ state: JobStatus; kind: string; count: number }>;
  /** Queued jobs not yet sent to a device, and those sent that the device has not started. */
  queue: { waiting: number; sent: number };
  dispatch: Record<(typeof JOB_KINDS)[number], DispatchLatency>;
  devices: { enrolled: number; online: number; linkedHere: number };
  storage: { usedBytes: number; quotaBytes: number };
  /** Per key with jobs waiting to be sent: how many, and how long the oldest has waited (seconds). */
  keys: Array<{ keyId: string; waiting: number; oldestWaitSeconds: number }>;
}

export async function readRelayMetrics(
  db: Queryable,
  options: { now: number; offlineAfterMs: number; instanceId?: string },
): Promise<RelayMetrics> {
  const jobs = await db.query<{ status: JobStatus; kind: string; n: number }>(
    'SELECT status, kind, count(*)::int AS n FROM jobs WHERE accepted GROUP BY status, kind',
  );
  const [queue] = await db.query<{ waiting: number; sent: number }>(
    `SELECT count(*) FILTER (WHERE dispatched_at IS NULL)::int AS waiting, count(*) FILTER (WHERE dispatched_at IS NOT NULL)::int AS sent
     FROM jobs WHERE accepted AND status = 'queued'`,
  );
  // From creation to the latest sending to a device; for STT creation is when the upload began.
  const buckets = DISPATCH_BUCKETS.map(
    (le, i) => `count(*) FILTER (WHERE dispatched_at - created_at <= ${le * 1000})::int AS b${i}`,
  ).join(', ');
  const latency = await db.query<Record<string, number> & { kind: string; n: number; sum_ms: number }>(
    `SELECT kind, ${buckets}, count(*)::int AS n, COALESCE(sum(dispatched_at - created_at), 0)::float8 AS sum_ms
     FROM jobs WHERE accepted AND dispatched_at IS NOT NULL GROUP BY kind`,
  );
  const [devices] = await db.query<{ enrolled: number; online: number; here: number }>(
    `SELECT count(*)::int AS enrolled,
            count(*) FILTER (WHERE session_id IS NOT NULL AND last_seen_at > $1)::int AS online,
            count(*) FILTER (WHERE session_id IS NOT NULL AND last_seen_at > $1 AND instance_id = $2)::int AS here
     FROM devices WHERE revoked_at IS NULL`,
    [options.now - options.offlineAfterMs, options.instanceId ?? null],
  );
  const [storage] = await db.query<{ used: number; quota: number }>(
    'SELECT COALESCE(sum(storage_used_bytes), 0)::float8 AS used, COALESCE(sum(storage_quota_bytes), 0)::float8 AS quota FROM accounts',
  );
  const keys = await db.query<{ key_id: string; waiting: number; oldest: number }>(
    `SELECT key_id, count(*)::int AS waiting, min(created_at)::float8 AS oldest FROM jobs
     WHERE accepted AND status = 'queued' AND dispatched_at IS NULL AND key_id IS NOT NULL GROUP BY key_id ORDER BY key_id`,
  );
  const dispatchOf = (kind: string): DispatchLatency => {
    const row = latency.find((r) => r.kind === kind);
    return {
      buckets: DISPATCH_BUCKETS.map((_, i) => row?.[`b${i}`] ?? 0),
      count: row?.n ?? 0,
      sumSeconds: (row?.sum_ms ?? 0) / 1000,
    };
  };
  return {
    jobs: jobs.map((row) => ({ state: row.status, kind: row.kind, count: row.n })),
    queue: { waiting: queue?.waiting ?? 0, sent: queue?.sent ?? 0 },
    dispatch: { tts: dispatchOf('tts'), stt: dispatchOf('stt') },
    devices: { enrolled: devices?.enrolled ?? 0, online: devices?.online ?? 0, linkedHere: devices?.here ?? 0 },
    storage: { usedBytes: storage?.used ?? 0, quotaBytes: storage?.quota ?? 0 },
    keys: keys.map((row) => ({
      keyId: row.key_id,
      waiting: row.waiting,
      oldestWaitSeconds: Math.max(0, (options.now - row.oldest) / 1000),
    })),
  };
}
