import type { Database, Queryable } from '../db/database';

export interface Account {
  id: number;
  name: string;
  /** Credits with three decimals (stored as milli-credits). */
  credits: number;
  storageQuotaBytes: number;
  storageUsedBytes: number;
}

export interface AccountDefaults {
  initialCredits: number;
  storageQuotaBytes: number;
}

export const DEFAULT_ACCOUNT: AccountDefaults = { initialCredits: 600, storageQuotaBytes: 10 * 1024 ** 3 };

interface AccountRow {
  id: number;
  name: string;
  credits_milli: number;
  storage_quota_bytes: number;
  storage_used_bytes: number;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  credits: row.credits_milli / 1000,
  storageQuotaBytes: row.storage_quota_bytes,
  storageUsedBytes: row.storage_used_bytes,
});

/**
 * The relay's account: made on first start with the defaults. The schema holds many accounts (keys,
 * devices and jobs all belong to one); this relay's portal and CLI administer the first.
 */
export async function ensureAccount(db: Database, defaults: AccountDefaults = DEFAULT_ACCOUNT): Promise<Account> {
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE accounts IN EXCLUSIVE MODE');
    const [existing] = await tx.query<AccountRow>('SELECT * FROM accounts ORDER BY id LIMIT 1');
    if (existing) return toAccount(existing);
    const [created] = await tx.query<AccountRow>(
      `INSERT INTO accounts (name, credits_milli, storage_quota_bytes, created_at) VALUES ('default', $1, $2, $3) RETURNING *`,
      [Math.round(defaults.initialCredits * 1000), defaults.storageQuotaBytes, Date.now()],
    );
    return toAccount(created);
  });
}

export async function getAccount(db: Queryable, id: number): Promise<Account> {
  const [row] = await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
  if (!row) throw new Error(`No account ${id}.`);
  return toAccount(row);
}

/** Adds (or, negative, removes) credits; returns the new balance. */
export async function addCredits(db: Queryable, accountId: number, credits: number): Promise<number> {
  if (!Number.isFinite(credits)) throw new TypeError(`Expected a number of credits, got ${credits}`);
  const [row] = await db.query<{ credits_milli: number }>(
    'UPDATE accounts SET credits_milli = credits_milli + $2 WHERE id = $1 RETURNING credits_milli',
    [accountId, Math.round(credits * 1000)],
  );
  return row.credits_milli / 1000;
}

export async function setStorageQuota(db: Queryable, accountId: number, bytes: number): Promise<void> {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new TypeError(`Expected a number of bytes, got ${bytes}`);
  await db.query('UPDATE accounts SET storage_quota_bytes = $2 WHERE id = $1', [accountId, bytes]);
}

/** Adds (or, negative, removes) milli-credits, whatever the balance: settling a job's reservation. */
export async function adjustCreditsMilli(tx: Queryable, accountId: number, milli: number): Promise<void> {
  if (milli === 0) return;
  await tx.query('UPDATE accounts SET credits_milli = credits_milli + $2 WHERE id = $1', [accountId, milli]);
}

export async function creditBalanceMilli(tx: Queryable, accountId: number): Promise<number> {
  const [row] = await tx.query<{ credits_milli: number }>('SELECT credits_milli FROM accounts WHERE id = $1', [
    accountId,
  ]);
  return row.credits_milli;
}

/** False once the account uses all of its storage quota (or more). */
export async function hasStorageRoom(tx: Queryable, accountId: number): Promise<boolean> {
  const [row] = await tx.query<{ used: number; quota: number }>(
    'SELECT storage_used_bytes AS used, storage_quota_bytes AS quota FROM accounts WHERE id = $1',
    [accountId],
  );
  return row.used < row.quota;
}

/** The bytes of storage quota still free (0 or less when it is used up). */
export async function storageRoom(db: Queryable, accountId: number): Promise<number> {
  const [row] = await db.query<{ used: number; quota: number }>(
    'SELECT storage_used_bytes AS used, storage_quota_bytes AS quota FROM accounts WHERE id = $1',
    [accountId],
  );
  return Number(row.quota) - Number(row.used);
}

/** Takes `milli` credits if the balance covers them; false when it does not. */
export async function reserveCredits(tx: Queryable, accountId: number, milli: number): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE accounts SET credits_milli = credits_milli - $2 WHERE id = $1 AND credits_milli >= $2 RETURNING id',
    [accountId, milli],
  );
  return rows.length === 1;
}

/** Holds `bytes` of the storage quota if they fit; false when they do not. */
export async function reserveStorage(tx: Queryable, accountId: number, bytes: number): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE accounts SET storage_used_bytes = storage_used_bytes + $2
     WHERE id = $1 AND storage_used_bytes + $2 <= storage_quota_bytes RETURNING id`,
    [accountId, bytes],
  );
  return rows.length === 1;
}

/**
 * Holds up to `bytes` of the storage quota, as much as is free: the declared length of a multipart body is
 * more than its file, so a file that fits must not be refused for it (the file's own size is checked once
 * it is known). Returns the bytes held, or undefined when the quota is already used up.
 */
export async function reserveStorageUpTo(tx: Queryable, accountId: number, bytes: number): Promise<number | undefined> {
  const [row] = await tx.query<{ used: number; quota: number }>(
    'SELECT storage_used_bytes AS used, storage_quota_bytes AS quota FROM accounts WHERE id = $1 FOR UPDATE',
    [accountId],
  );
  const free = Number(row.quota) - Number(row.used);
  if (free <= 0) return undefined;
  const held = Math.min(bytes, free);
  await adjustStorage(tx, accountId, held);
  return held;
}

/** Adjusts the storage in use by `delta` bytes (never below zero), whatever the quota. */
export async function adjustStorage(db: Queryable, accountId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  await db.query('UPDATE accounts SET storage_used_bytes = GREATEST(0, storage_used_bytes + $2) WHERE id = $1', [
    accountId,
    delta,
  ]);
}
