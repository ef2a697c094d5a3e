import type { Middleware } from 'koa';
import { ApiError } from '../contract/errors';

/**
 * The relay's Host allow-list (`--allowed-hosts`, RELAY_ALLOWED_HOSTS). Unset, any Host is served, as a
 * relay behind a load balancer or on a changing address needs; set, a request whose Host names another
 * name is refused, which stops DNS rebinding from reaching the portal and the API through a name an
 * attacker controls. An entry is a host name or IP address (no port), or `.example.com` for that domain
 * and every name under it.
 */
export function parseAllowedHosts(text: string): string[] {
  return text
    .split(',')
    .map((entry) =>
      entry
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter(Boolean);
}

/** The host name of a Host header (port and IPv6 brackets removed, lower case), or undefined if it is not one. */
function hostnameOf(header: string): string | undefined {
  if (header === '' || /[\s/@?#\\]/.test(header)) return undefined;
  try {
    return new URL(`http://${header}`).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}

export function hostAllowed(allowed: readonly string[] | undefined, header: string): boolean {
  if (!allowed || allowed.length === 0) return true;
  const name = hostnameOf(header);
  if (name === undefined) return false;
  return allowed.some((entry) =>
    entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry,
  );
}

export const hostRefusal = (header: string): string =>
  `Host ${JSON.stringify(header.slice(0, 100))} is not one of this relay's allowed hosts (--allowed-hosts).`;

/** Refuses requests to a Host outside the list with 403 HOST_NOT_ALLOWED; the proxy's X-Forwarded-Host when trusted. */
export function allowedHostsOnly(allowed: readonly string[] | undefined): Middleware {
  return async (ctx, next) => {
    if (!hostAllowed(allowed, ctx.host)) throw new ApiError('HOST_NOT_ALLOWED', hostRefusal(ctx.host));
    await next();
  };
}
