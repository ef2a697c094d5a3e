import type { Database } from './database';
import { MIGRATIONS, type Migration } from './migrations';

/** Any number: all relay instances take this advisory lock, so only one of them migrates at a time. */
const MIGRATION_LOCK = 7_261_001;

/**
 * Brings the schema up to date in one transaction. Safe when several instances start at once: the
 * others wait on the lock, then find nothing left to do. Returns the versions it applied.
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`);
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...applied);
    const known = Math.max(0, ...migrations.map((m) => m.version));
    if (newest > known) {
      throw new Error(
        `The database schema is version ${newest}, newer than this relay knows (${known}): upgrade the relay.`,
      );
    }
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
      done.push(migration.version);
    }
    return done;
  });
}
