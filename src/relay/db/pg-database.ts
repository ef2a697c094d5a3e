import pg from 'pg';
import type { Logger } from '../../util/log';
import type { Database, Queryable, Row } from './database';

const INT8_OID = 20;

/** int8 (bigint) as a number: the relay's bigints are milliseconds, bytes and counts, all < 2^53. */
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
};

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as T[];
    },
  };
}

/**
 * A real PostgreSQL through a `pg` pool, plus one dedicated connection for LISTEN that reconnects by
 * itself, so an instance keeps hearing the others after the database restarts.
 */
export async function openPgDatabase(connectionString: string, log: Logger, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: poolSize, types, idleTimeoutMillis: 30_000 });
  pool.on('error', (error) => log.warn(`PostgreSQL pool: ${error.message}`));
  await pool.query('SELECT 1');

  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listener: pg.Client | undefined;
  let closed = false;
  let reconnecting: Promise<void> | undefined;

  async function connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString, types });
    client.on('notification', (message) => {
      for (const callback of listeners.get(message.channel) ?? []) callback(message.payload ?? '');
    });
    client.on('error', (error) => {
      log.warn(`PostgreSQL LISTEN connection: ${error.message}; reconnecting`);
      if (listener === client) listener = undefined;
      client.end().catch(() => undefined);
      scheduleReconnect();
    });
    await client.connect();
    for (const channel of listeners.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    listener = client;
  }

  function scheduleReconnect(delay = 500): void {
    if (closed || reconnecting) return;
    reconnecting = new Promise<void>((resolve) => setTimeout(resolve, delay).unref())
      .then(connectListener)
      .catch((error: Error) => {
        log.warn(`PostgreSQL LISTEN reconnect failed: ${error.message}`);
        reconnecting = undefined;
        scheduleReconnect(Math.min(delay * 2, 10_000));
      })
      .finally(() => (reconnecting = undefined));
  }

  await connectListener();

  return {
    kind: 'postgres',
    ...queryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await listener?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => void listeners.get(channel)?.delete(onPayload);
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
