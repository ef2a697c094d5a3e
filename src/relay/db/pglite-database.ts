import type { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Row } from './database';

/** Both PGlite's client and its transaction object have this `query`. */
type PGliteQuery = Pick<PGlite, 'query'>;

function queryable(client: PGliteQuery): Queryable {
  return {
    async query<T = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query<T>(sql, params as unknown[]);
      return result.rows;
    },
  };
}

/**
 * The embedded default: PGlite persisted in `dataDir`. It lives inside this process, so LISTEN/NOTIFY
 * reaches only this process: one relay instance per data directory (the open-database lock enforces it).
 */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  // PGlite is ESM-first and loads its .wasm/.data files beside itself: import it at run time, unbundled.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dataDir);
  return {
    kind: 'pglite',
    ...queryable(db),
    transaction: (work) => db.transaction((tx) => work(queryable(tx))),
    async listen(channel, onPayload) {
      const unlisten = await db.listen(channel, onPayload);
      return async () => unlisten();
    },
    close: () => db.close(),
  };
}
