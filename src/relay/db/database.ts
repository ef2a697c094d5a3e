/**
 * The relay's one small seam over PostgreSQL: plain SQL with `$1` parameters, transactions and
 * LISTEN/NOTIFY. Two implementations run the same SQL: `pg` against a real server (several relay
 * instances may share it) and PGlite (Postgres compiled to WebAssembly, in this process, one instance).
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one statement; int8 columns come back as JavaScript numbers, jsonb as parsed values. */
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `onPayload` for every NOTIFY on `channel`, from any connection; resolves once listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** NOTIFY inside a transaction is delivered at commit, and never if it rolls back. */
export async function notify(db: Queryable, channel: string, payload: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

/** The channels the relay instances talk over. */
export const CHANNELS = {
  /** payload: a device id with jobs waiting to be sent to it */
  dispatch: 'relay_dispatch',
  /** payload: `<device id> <job id>` of a job cancelled through the API */
  cancel: 'relay_cancel',
  /** payload: `<device id> <session id>` of a device's newest connection; older ones are closed */
  presence: 'relay_presence',
} as const;
