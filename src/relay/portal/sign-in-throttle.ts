import type { Logger } from '../../util/log';
import type { Database } from '../db/database';
import { accountSubject, addressSubject, clearSignInAttempts, countSignInAttempt, SIGN_IN_LIMITS } from '../data/sign-in-windows';

/**
 * Throttles portal sign-in by account and by address. Each attempt is counted before the password is
 * checked, so parallel guesses cannot slip past the limit while bcrypt runs; a successful sign-in clears
 * the count. Returns the seconds to wait when the attempt is refused, undefined when it may go ahead.
 */
export async function takeSignInAttempt(db: Database, log: Logger, username: string, address: string, now = Date.now()): Promise<number | undefined> {
  const { windowMs, perAccount, perAddress } = SIGN_IN_LIMITS;
  const windowStart = now - (now % windowMs);
  const [forAccount, forAddress] = await countSignInAttempt(db, [accountSubject(username), addressSubject(address)], windowStart);
  if (forAccount <= perAccount && forAddress <= perAddress) return undefined;
  // Logged once per window and subject: the first refused attempt.
  if (forAccount === perAccount + 1) log.warn(`Portal sign-in for ${JSON.stringify(username.slice(0, 100))} is refused for the rest of a ${windowMs / 60_000}-minute window after ${perAccount} attempts.`);
  if (forAddress === perAddress + 1) log.warn(`Portal sign-in from ${address} is refused for the rest of a ${windowMs / 60_000}-minute window after ${perAddress} attempts.`);
  return Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
}

export async function signInSucceeded(db: Database, username: string, address: string): Promise<void> {
  await clearSignInAttempts(db, [accountSubject(username), addressSubject(address)]);
}
