import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';
import { sha256Hex } from './secret-token';
import type { User } from './users';

export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

export interface Session {
  user: User;
  csrfToken: string;
  expiresAt: number;
}

/** A new portal session: the cookie value is returned once; the database keeps only its hash. */
export async function createSession(db: Queryable, user: User): Promise<{ cookieValue: string; session: Session }> {
  const cookieValue = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.query('DELETE FROM sessions WHERE expires_at < $1', [now]);
  await db.query(
    'INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [sha256Hex(cookieValue), user.id, csrfToken, now, now + SESSION_LIFETIME_MS],
  );
  return { cookieValue, session: { user, csrfToken, expiresAt: now + SESSION_LIFETIME_MS } };
}

export async function findSession(db: Queryable, cookieValue: string): Promise<Session | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return undefined;
  const [row] = await db.query<{
    csrf_token: string;
    expires_at: number;
    id: number;
    account_id: number;
    username: string;
  }>(
    `SELECT s.csrf_token, s.expires_at, u.id, u.account_id, u.username FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > $2`,
    [sha256Hex(cookieValue), Date.now()],
  );
  if (!row) return undefined;
  return {
    user: { id: row.id, accountId: row.account_id, username: row.username },
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
  };
}

export async function deleteSession(db: Queryable, cookieValue: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [sha256Hex(cookieValue)]);
}
