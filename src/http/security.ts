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
  const refusal = browserOriginRefusal(ctx.headers.origin, ctx.get('Sec-Fetch-Site'));
  if (refusal) throw refusal;
  await next();
};

/** The refusal of a request a web page made (see rejectBrowserOrigins), for doors that see headers before Koa (WebSocket upgrades). */
export function browserOriginRefusal(origin: string | undefined, fetchSite: string): ApiError | undefined {
  if (origin !== undefined || FOREIGN_SITES.has(fetchSite.toLowerCase())) {
    return new ApiError(
      'ORIGIN_NOT_ALLOWED',
      'Requests from web pages are not allowed: the Local API does not serve browsers.',
    );
  }
  return undefined;
}

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
    const refusal = hostRefusal(boundHost(), ctx.get('Host'));
    if (refusal) throw refusal;
    await next();
  };
}

/** The refusal of a Host header that is not this machine's loopback name while bound to loopback (see checkHost). */
export function hostRefusal(boundHost: string, header: string): ApiError | undefined {
  const bound = boundHost.toLowerCase();
  if (isLoopbackName(bound) && header !== '') {
    const name = hostnameOf(header);
    if (!isLoopbackName(name) && name !== bound) {
      return new ApiError(
        'HOST_NOT_ALLOWED',
        `Host ${JSON.stringify(header.slice(0, 100))} is not this machine's loopback address.`,
      );
    }
  }
  return undefined;
}

export function requireEnabled(isEnabled: () => boolean): Middleware {
  return async (_ctx, next) => {
    const refusal = disabledRefusal(isEnabled());
    if (refusal) throw refusal;
    await next();
  };
}

/** The refusal of every request while the Local API is switched off (see requireEnabled). */
export function disabledRefusal(enabled: boolean): ApiError | undefined {
  return enabled
    ? undefined
    : new ApiError('LOCAL_API_DISABLED', "The Local API is switched off in Speech Studio's settings.");
}

export function bearerAuth(authEnabled: () => boolean, keys: ApiKeySource): Middleware {
  return async (ctx, next) => {
    const refusal = authEnabled() ? bearerRefusal(ctx.get('Authorization'), keys) : undefined;
    if (refusal) throw refusal;
    await next();
  };
}

/** The refusal of a missing or wrong bearer key while authentication is on (see bearerAuth). */
export function bearerRefusal(header: string, keys: ApiKeySource): ApiError | undefined {
  const challenge = { 'WWW-Authenticate': 'Bearer realm="speech-studio"' };
  if (header === '') {
    return new ApiError('AUTH_REQUIRED', 'This Local API requires Authorization: Bearer <API key>.', {
      headers: challenge,
    });
  }
  // The scheme is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` are the same.
  const match = /^Bearer (\S+)$/i.exec(header);
  const expected = keys.current();
  if (!match || expected === undefined || !keysMatch(match[1], expected)) {
    return new ApiError('INVALID_API_KEY', 'The API key is wrong or has been regenerated.', { headers: challenge });
  }
  return undefined;
}

export function requireFeature(
  entitlements: EntitlementProvider,
  feature: 'tts' | 'stt' | 'app_connection',
): Middleware {
  return async (_ctx, next) => {
    const refusal = featureRefusal(entitlements, feature);
    if (refusal) throw refusal;
    await next();
  };
}

/** The refusal of a feature the account does not include (see requireFeature). */
export function featureRefusal(
  entitlements: EntitlementProvider,
  feature: 'tts' | 'stt' | 'app_connection',
): ApiError | undefined {
  if (entitlements.has(feature)) return undefined;
  return new ApiError('ENTITLEMENT_REQUIRED', `Your Speech Studio account does not include ${feature}.`, { feature });
}
