import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../util/log';
import type { Database } from './database';
import { migrate } from './migrate';
import { openPgDatabase } from './pg-database';
import { openPgliteDatabase } from './pglite-database';

export interface DatabaseOptions {
  /** postgres://… for a real server; absent: PGlite in `<dataDir>/db`. */
  databaseUrl?: string;
  dataDir: string;
  log: Logger;
}

const LOCK_FILE = 'pglite.lock';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite has no server to arbitrate: two processes on one data directory would corrupt it. */
async function takeLock(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, String(process.pid), { flag: 'wx' });
      return () => fs.rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await fs.readFile(file, 'utf8').catch(() => ''));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${holder} (a running relay). ` +
            'Stop it first, use the portal, or run the relay on PostgreSQL (--database-url).',
          { cause: error },
        );
      }
      await fs.rm(file, { force: true }); // left by a relay that did not exit cleanly
    }
  }
  throw new Error(`Could not lock ${file}.`);
}

/** Opens the relay's database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const db = await openPgDatabase(options.databaseUrl, options.log);
    await migrate(db).catch(async (error) => {
      await db.close();
      throw error;
    });
    return db;
  }
  await fs.mkdir(options.dataDir, { recursive: true });
  const release = await takeLock(options.dataDir);
  let db: Database;
  try {
    db = await openPgliteDatabase(path.join(options.dataDir, 'db'));
    await migrate(db);
  } catch (error) {
    await release();
    throw error;
  }
  return {
    ...db,
    close: async () => {
      await db.close();
      await release();
    },
  };
}
