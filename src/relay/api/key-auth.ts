import type { Middleware } from 'koa';
import { ApiError } from '../../contract/errors';
import { authenticateApiKey, type Scope } from '../data/api-keys';
import { authenticateDevice } from '../data/devices';
import { countRequest } from '../data/rate-windows';
import type { RelayDeps, RelayState } from './deps';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="speech-studio-relay"' };
const WINDOW_MS = 60_000;

const bearer = (header: string): string | undefined => /^Bearer (\S+)$/.exec(header)?.[1];

/** Every Remote API call needs a live key: wrong, expired and revoked keys all get 401 INVALID_API_KEY. */
export function apiKeyAuth(deps: RelayDeps): Middleware<RelayState> {
  return async (ctx, next) => {
    const given = bearer(ctx.get('Authorization'));
    if (given === undefined) {
      throw new ApiError('INVALID_API_KEY', 'The Remote API requires Authorization: Bearer <API key>.', {
        headers: CHALLENGE,
      });
    }
    const key = await authenticateApiKey(deps.db, given);
    if (!key)
      throw new ApiError('INVALID_API_KEY', 'The API key is wrong, expired or revoked.', { headers: CHALLENGE });
    ctx.state.key = key;
    await next();
  };
}

/**
 * Requests per minute per key, over a sliding minute counted in the database (data/rate-windows.ts), so the
 * limit holds across minute boundaries and however many relay instances share the work.
 */
export function rateLimit(deps: RelayDeps): Middleware<RelayState> {
  return async (ctx, next) => {
    const key = ctx.state.key!;
    const counted = await countRequest(deps.db, key.id, Date.now(), key.rpm, WINDOW_MS);
    ctx.set('X-RateLimit-Limit', String(key.rpm));
    ctx.set('X-RateLimit-Remaining', String(Math.max(0, key.rpm - counted.requests)));
    if (counted.refused) {
      const retryAfter = counted.retryAfterSeconds;
      throw new ApiError(
        'RATE_LIMITED',
        `This key may make ${key.rpm} requests a minute; try again in ${retryAfter} s.`,
        {
          headers: { 'Retry-After': String(retryAfter) },
        },
      );
    }
    await next();
  };
}

export function requireScope(scope: Scope): Middleware<RelayState> {
  return async (ctx, next) => {
    if (!ctx.state.key?.scopes.includes(scope)) {
      throw new ApiError('INSUFFICIENT_SCOPE', `This key lacks the ${scope} scope this operation needs.`);
    }
    await next();
  };
}

/** The device side of file transfers: `Authorization: Bearer <device token>`. */
export function deviceAuth(deps: RelayDeps): Middleware<RelayState> {
  return async (ctx, next) => {
    const device = await authenticateDevice(deps.db, bearer(ctx.get('Authorization')) ?? '');
    if (!device)
      throw new ApiError('INVALID_API_KEY', 'The device token is wrong, or the device was removed.', {
        headers: CHALLENGE,
      });
    ctx.state.device = device;
    await next();
  };
}
