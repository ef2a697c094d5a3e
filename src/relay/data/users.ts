import bcrypt from 'bcryptjs';
import type { Database, Queryable } from '../db/database';
import { randomBase62 } from './secret-token';
import { accountSubject, clearSignInAttempts } from './sign-in-windows';
import { hasNul } from './stored-text';

export const ADMIN_USERNAME = 'admin';
const BCRYPT_COST = 11;

export interface User {
  id: number;
  accountId: number;
  username: string;
}

/** A hash bcrypt compares in about the same time as a real one, so unknown names take as long as known ones. */
let dummyHash: string | undefined;
const dummy = (): string => (dummyHash ??= bcrypt.hashSync('not a password', BCRYPT_COST));

/**
 * Creates the portal's admin user on first start. Returns the password when it was generated here (to be
 * shown once), undefined when the user already existed or the password was given.
 */
export async function ensureAdminUser(db: Database, accountId: number, password?: string): Promise<string | undefined> {
  const [existing] = await db.query('SELECT id FROM users WHERE username = $1', [ADMIN_USERNAME]);
  if (existing) return undefined;
  const chosen = password ?? randomBase62(20);
  const hash = await bcrypt.hash(chosen, BCRYPT_COST);
  await db.query(
    'INSERT INTO users (account_id, username, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (username) DO NOTHING',
    [accountId, ADMIN_USERNAME, hash, Date.now()],
  );
  return password === undefined ? chosen : undefined;
}

export async function setPassword(db: Queryable, username: string, password: string): Promise<boolean> {
  if (password.length < 8) throw new TypeError('Expected a password of at least 8 characters');
  const hash = await bcrypt.hash(password, BCRYPT_COST);
  const rows = await db.query('UPDATE users SET password_hash = $2 WHERE username = $1 RETURNING id', [username, hash]);
  if (rows.length === 1) {
    await db.query('DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = $1)', [username]);
    // A new password is the way back in for an administrator whose name was throttled by someone else's guesses.
    await clearSignInAttempts(db, [accountSubject(username)]);
  }
  return rows.length === 1;
}

/** The user when the password matches; bcrypt runs even for an unknown name. */
export async function verifyPassword(db: Queryable, username: string, password: string): Promise<User | undefined> {
  // No user name holds NUL (PostgreSQL cannot store one): such a name matches nobody.
  const [row] = hasNul(username)
    ? []
    : await db.query<{ id: number; account_id: number; username: string; password_hash: string }>(
        'SELECT id, account_id, username, password_hash FROM users WHERE username = $1',
        [username.slice(0, 100)],
      );
  const ok = await bcrypt.compare(password.slice(0, 200), row?.password_hash ?? dummy());
  return row && ok ? { id: row.id, accountId: row.account_id, username: row.username } : undefined;
}
