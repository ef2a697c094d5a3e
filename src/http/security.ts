import type { Middleware } from 'koa';
import { keysMatch, type ApiKeySource } from './api-key';
import type { EntitlementProvider } from './entitlements';
import { ApiError } from '../contract/errors';

/** Sec-Fetch-Site values a browser sends when another site's page made the request. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/**
 * Any request a web page made is refused before anything else runs: one with an Origin header (even an
 * empty one; CORS preflights too), and one whose Fetch Metadata says another site made it, which is how
 * `<img>`, `<audio>` and `<script>` GETs arrive (no Origin). Native clients send neither header; a person
 * typing the address (`Sec-Fetch-Site: none`) is served.
 */
export const rejectBrowserOrigins: Middleware = async (ctx, next) => {
  if (ctx.headers.origin !== undefined || FOREIGN_SITES.has(ctx.get('Sec-Fetch-Site').toLowerCase())) {
    throw new ApiError('ORIGIN_NOT_ALLOWED', 'Requests from web pages are not allowed: the Local API does not serve browsers.');
  }
  await next();
};

const isLoopbackName = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);

/** Splits a Host header into its name (brackets removed for IPv6). */
function hostnameOf(header: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  if (bracketed) return bracketed[1].toLowerCase();
  return header.replace(/:\d+$/, '').toLowerCase();
}

/**
 * While bound to loopback, only loopback names are accepted in Host: a page on another domain that rebinds
 * its DNS to 127.0.0.1 still sends its own name, and is refused.
 */
export function checkHost(boundHost: () => string): Middleware {
  return async (ctx, next) => {
    const bound = boundHost().toLowerCase();
    const header = ctx.get('Host');
    if (isLoopbackName(bound) && header !== '') {
      const name = hostnameOf(header);
      if (!isLoopbackName(name) && name !== bound) {
        throw new ApiError('HOST_NOT_ALLOWED', `Host ${JSON.stringify(header.slice(0, 100))} is not this machine's loopback address.`);
      }
    }
    await next();
  };
}

export function requireEnabled(isEnabled: () => boolean): Middleware {
  return async (_ctx, next) => {
    if (!isEnabled()) throw new ApiError('LOCAL_API_DISABLED', 'The Local API is switched off in Speech Studio\'s settings.');
    await next();
  };
}

export function bearerAuth(authEnabled: () => boolean, keys: ApiKeySource): Middleware {
  return async (ctx, next) => {
    if (authEnabled()) {
      const challenge = { 'WWW-Authenticate': 'Bearer realm="speech-studio"' };
      const header = ctx.get('Authorization');
      if (header === '') {
        throw new ApiError('AUTH_REQUIRED', 'This Local API requires Authorization: Bearer <API key>.', { headers: challenge });
      }
      const match = /^Bearer (\S+)$/.exec(header);
      const expected = keys.current();
      if (!match || expected === undefined || !keysMatch(match[1], expected)) {
        throw new ApiError('INVALID_API_KEY', 'The API key is wrong or has been regenerated.', { headers: challenge });
      }
    }
    await next();
  };
}

export function requireFeature(entitlements: EntitlementProvider, feature: 'tts' | 'stt' | 'app_connection'): Middleware {
  return async (_ctx, next) => {
    if (!entitlements.has(feature)) {
      throw new ApiError('ENTITLEMENT_REQUIRED', `Your Speech Studio account does not include ${feature}.`, { feature });
    }
    await next();
  };
}
