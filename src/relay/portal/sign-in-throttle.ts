import type { Logger } from '../../util/log';
import type { Database } from '../db/database';
import {
  accountSubject,
  addressSubject,
  clearSignInAttempts,
  countSignInAttempt,
  SIGN_IN_LIMITS,
  withdrawSignInAttempt,
} from '../data/sign-in-windows';

export interface SignInThrottle {
  /** Seconds to wait when this attempt is refused, undefined when it may go ahead and check the password. */
  take(username: string, address: string, now?: number): Promise<number | undefined>;
  succeeded(username: string, address: string): Promise<void>;
}

/**
 * Throttles portal sign-in by account name and by address over a sliding window (SIGN_IN_LIMITS). An
 * attempt is counted before the password is checked, so parallel guesses cannot slip past the limit while
 * bcrypt runs; a refused attempt is taken back (no password was checked, and hammering must not lengthen
 * the wait); a successful sign-in clears both counts.
 */
export function signInThrottle(db: Database, log: Logger): SignInThrottle {
  const { windowMs, perAccount, perAddress } = SIGN_IN_LIMITS;
  /** When each refused subject was last logged here: once a window, so refusals cannot flood the log. */
  const logged = new Map<string, number>();
  const note = (subject: string, what: string, now: number): void => {
    if (now - (logged.get(subject) ?? -Infinity) < windowMs) return;
    if (logged.size > 10_000) logged.clear();
    logged.set(subject, now);
    log.warn(
      `Portal sign-in ${what} is refused: more than ${subject.startsWith('account:') ? perAccount : perAddress} attempts in ${windowMs / 60_000} minutes.`,
    );
  };

  return {
    async take(username, address, now = Date.now()) {
      const subjects = [accountSubject(username), addressSubject(address)];
      const counts = [];
      for (const subject of subjects) counts.push(await countSignInAttempt(db, subject, now, windowMs));
      const over = [counts[0].attempts > perAccount, counts[1].attempts > perAddress];
      if (!over[0] && !over[1]) return undefined;
      for (const subject of subjects) await withdrawSignInAttempt(db, subject, now);
      if (over[0]) note(subjects[0], `for ${JSON.stringify(username.slice(0, 100))}`, now);
      if (over[1]) note(subjects[1], `from ${address}`, now);
      // The wait ends when the oldest attempts of every limit that was reached leave the window.
      const until = Math.max(...counts.filter((_, i) => over[i]).map((count) => count.oldest + windowMs));
      return Math.max(1, Math.ceil((until - now) / 1000));
    },
    succeeded: (username, address) => clearSignInAttempts(db, [accountSubject(username), addressSubject(address)]),
  };
}
