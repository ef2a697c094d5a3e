import type { Queryable } from '../db/database';
import { LABEL } from './label-format';
import { API_KEY_FORMAT, lookupOf, newSecret, publicId, secretMatches } from './secret-token';
import { hasNul, NUL_REFUSED } from './stored-text';

export const SCOPES = [
  'capabilities.read',
  'voices.read',
  'tts.create',
  'stt.create',
  'jobs.read',
  'jobs.cancel',
] as const;
export type Scope = (typeof SCOPES)[number];
/** A pool of `['*']` is every device of the account, present and future. */
export const ALL_DEVICES = '*';
export const DEFAULT_RPM = 60;
export const DEFAULT_CONCURRENCY = 2;

export interface ApiKey {
  id: string;
  accountId: number;
  name: string;
  /** The first characters of the key, enough to recognise it in a list, useless to call with. */
  hint: string;
  scopes: Scope[];
  pool: string[];
  rpm: number;
  maxConcurrentJobs: number;
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface NewApiKey {
  name: string;
  scopes: readonly string[];
  pool: readonly string[];
  expiresAt?: number | null;
  rpm?: number;
  maxConcurrentJobs?: number;
}

/** A mistake in what an administrator asked for; the CLI and the portal show the message as it is. */
export class InvalidInputError extends Error {}

interface KeyRow {
  id: string;
  account_id: number;
  name: string;
  lookup: string;
  secret_hash: string;
  scopes: Scope[];
  pool: string[];
  rpm: number;
  max_concurrent: number;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  last_used_at: number | null;
}

const toKey = (row: KeyRow): ApiKey => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  hint: `${row.lookup}…`,
  scopes: row.scopes,
  pool: row.pool,
  rpm: row.rpm,
  maxConcurrentJobs: row.max_concurrent,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

function checkInteger(value: number, what: string, low: number, high: number): number {
  if (!Number.isInteger(value) || value < low || value > high)
    throw new InvalidInputError(`${what}: must be a whole number from ${low} to ${high}`);
  return value;
}

async function checkPool(db: Queryable, accountId: number, pool: readonly string[]): Promise<string[]> {
  const ids = [...new Set(pool.map((id) => id.trim()).filter(Boolean))];
  if (ids.some(hasNul)) throw new InvalidInputError(`pool: ${NUL_REFUSED}`);
  if (ids.length === 0) throw new InvalidInputError('pool: name at least one device id, or * for every device');
  if (ids.includes(ALL_DEVICES)) return [ALL_DEVICES];
  // `label:<name>`: every device carrying it, now or later; devices are named by id and must exist.
  const labels = ids.filter((id) => id.startsWith('label:'));
  const wrong = labels.find((entry) => !LABEL.test(entry.slice('label:'.length)));
  if (wrong)
    throw new InvalidInputError(`pool: ${JSON.stringify(wrong.slice(0, 70))} is not a label: use a-z, 0-9 and .-_:`);
  const deviceIds = ids.filter((id) => !id.startsWith('label:'));
  const rows = await db.query<{ id: string }>('SELECT id FROM devices WHERE account_id = $1 AND id = ANY($2::text[])', [
    accountId,
    deviceIds,
  ]);
  const known = new Set(rows.map((row) => row.id));
  const unknown = deviceIds.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new InvalidInputError(`pool: no enrolled device ${unknown.join(', ')}`);
  return ids;
}

/** Sets a key's share of saturated devices (1 to 100; a key of weight 2 is sent twice as many jobs as one of 1). */
export async function setKeyWeight(db: Queryable, accountId: number, id: string, weight: number): Promise<boolean> {
  if (!Number.isInteger(weight) || weight < 1 || weight > 100)
    throw new InvalidInputError(`weight: must be a whole number from 1 to 100, not ${weight}`);
  if (hasNul(id)) return false;
  const rows = await db.query('UPDATE api_keys SET weight = $3 WHERE account_id = $1 AND id = $2 RETURNING id', [
    accountId,
    id,
    weight,
  ]);
  return rows.length === 1;
}

/** Creates a key; its plaintext is returned here and never again. */
export async function createApiKey(
  db: Queryable,
  accountId: number,
  input: NewApiKey,
): Promise<{ key: ApiKey; plaintext: string }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw new InvalidInputError('name: must be 1 to 100 characters');
  if (hasNul(name)) throw new InvalidInputError(`name: ${NUL_REFUSED}`);
  const scopes = [...new Set(input.scopes.map((s) => s.trim()).filter(Boolean))];
  if (scopes.length === 0) throw new InvalidInputError(`scopes: name at least one of ${SCOPES.join(', ')}`);
  const unknownScope = scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknownScope) throw new InvalidInputError(`scopes: ${unknownScope} is not one of ${SCOPES.join(', ')}`);
  const pool = await checkPool(db, accountId, input.pool);
  const rpm = checkInteger(input.rpm ?? DEFAULT_RPM, 'rpm', 1, 100_000);
  const concurrency = checkInteger(input.maxConcurrentJobs ?? DEFAULT_CONCURRENCY, 'concurrency', 1, 1000);
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && (!Number.isFinite(expiresAt) || expiresAt <= Date.now())) {
    throw new InvalidInputError('expires: must be a date and time in the future');
  }
  const secret = newSecret(API_KEY_FORMAT);
  const [row] = await db.query<KeyRow>(
    `INSERT INTO api_keys (id, account_id, name, lookup, secret_hash, scopes, pool, rpm, max_concurrent, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11) RETURNING *`,
    [
      publicId('key_', 12),
      accountId,
      name,
      secret.lookup,
      secret.hash,
      JSON.stringify(scopes),
      JSON.stringify(pool),
      rpm,
      concurrency,
      expiresAt,
      Date.now(),
    ],
  );
  return { key: toKey(row), plaintext: secret.plaintext };
}

export async function listApiKeys(db: Queryable, accountId: number): Promise<ApiKey[]> {
  const rows = await db.query<KeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id', [
    accountId,
  ]);
  return rows.map(toKey);
}

/** Revokes at once: the next request with the key gets 401. False when there is no such live key. */
export async function revokeApiKey(db: Queryable, accountId: number, id: string): Promise<boolean> {
  if (hasNul(id)) return false;
  const rows = await db.query(
    'UPDATE api_keys SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id',
    [accountId, id, Date.now()],
  );
  return rows.length === 1;
}

/** The live key a caller presented, or undefined when it is wrong, expired or revoked. */
export async function authenticateApiKey(db: Queryable, given: string): Promise<ApiKey | undefined> {
  const lookup = lookupOf(given, API_KEY_FORMAT);
  if (!lookup) return undefined;
  const rows = await db.query<KeyRow>('SELECT * FROM api_keys WHERE lookup = $1', [lookup]);
  const now = Date.now();
  const row = rows.find((candidate) => secretMatches(given, candidate.secret_hash));
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return undefined;
  return toKey(row);
}

/**
 * Locks a key's row until the transaction ends, so concurrent job creations for one key (on any instance)
 * count its active jobs one after the other.
 */
export async function lockApiKey(tx: Queryable, id: string): Promise<void> {
  await tx.query('SELECT id FROM api_keys WHERE id = $1 FOR UPDATE', [id]);
}

/** The account and device pool of a key, live or not (a job keeps the pool its key has now). */
export async function keyPool(db: Queryable, id: string): Promise<Pick<ApiKey, 'accountId' | 'pool'>> {
  const [row] = await db.query<Pick<KeyRow, 'account_id' | 'pool'>>(
    'SELECT account_id, pool FROM api_keys WHERE id = $1',
    [id],
  );
  return { accountId: row.account_id, pool: row.pool };
}
