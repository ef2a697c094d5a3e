import type { Context, Middleware } from 'koa';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../contract/errors';
import { findSession, type Session } from '../data/sessions';
import type { RelayDeps } from '../api/deps';

export const SESSION_COOKIE = 'relay_session';
export const LOGIN_CSRF_COOKIE = 'relay_login_csrf';

export interface PortalState {
  session?: Session;
  sessionCookie?: string;
}

/** Set-Cookie by hand: HttpOnly, SameSite=Strict, Path=/portal, and Secure over HTTPS (or when configured). */
export function setCookie(ctx: Context, deps: RelayDeps, name: string, value: string, maxAgeSeconds: number): void {
  const secure = ctx.secure || deps.secureCookies;
  ctx.append(
    'Set-Cookie',
    `${name}=${value}; Path=/portal; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
  );
}

export function readCookie(ctx: Context, name: string): string | undefined {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return rest.join('=');
  }
  return undefined;
}

export const newCsrfToken = (): string => randomBytes(32).toString('base64url');

export function tokensMatch(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== 'string' || expected === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Refuses a form post that another site could have made: a foreign Origin or Sec-Fetch-Site, or a
 * token that is not this session's (synchronizer token; the sign-in form uses a double-submit cookie).
 */
/** This server's own origin as the browser sees it (Koa 3's `ctx.origin` is the request's Origin header). */
export const ownOrigin = (ctx: Context): string => `${ctx.protocol}://${ctx.host}`;

export function checkCsrf(ctx: Context, given: unknown, expected: string | undefined): void {
  const origin = ctx.get('Origin');
  const site = ctx.get('Sec-Fetch-Site');
  const foreignOrigin = origin !== '' && origin !== ownOrigin(ctx);
  const foreignSite = site !== '' && site !== 'same-origin' && site !== 'none';
  if (foreignOrigin || foreignSite) {
    throw new ApiError('CSRF_REJECTED', 'This form was posted from another site.');
  }
  if (!tokensMatch(given, expected))
    throw new ApiError(
      'CSRF_REJECTED',
      'The form has expired or did not come from this portal; reload it and try again.',
    );
}

export function loadSession(deps: RelayDeps): Middleware<PortalState> {
  return async (ctx, next) => {
    const cookie = readCookie(ctx, SESSION_COOKIE);
    if (cookie) {
      const session = await findSession(deps.db, cookie);
      if (session) {
        ctx.state.session = session;
        ctx.state.sessionCookie = cookie;
      }
    }
    await next();
  };
}

/** Pages behind sign-in redirect there; posts without a session are refused. */
export const requireSession: Middleware<PortalState> = async (ctx, next) => {
  if (!ctx.state.session) {
    if (ctx.method === 'GET') return ctx.redirect('/portal/login');
    throw new ApiError('CSRF_REJECTED', 'Sign in first.');
  }
  await next();
};

/** Headers for every portal page: no caching (keys are shown), no framing, no scripts, forms to self only. */
export const portalHeaders: Middleware = async (ctx, next) => {
  ctx.set({
    'Cache-Control': 'no-store',
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'X-Frame-Options': 'DENY',
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on the portal's own form posts.
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
  });
  await next();
};
