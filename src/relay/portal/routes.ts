import Router from '@koa/router';
import type { Context, ParameterizedContext } from 'koa';
import { ApiError } from '../../contract/errors';
import { formBody } from '../../http/request-body';
import type { RelayDeps } from '../api/deps';
import { addCredits, getAccount } from '../data/accounts';
import { createApiKey, InvalidInputError, listApiKeys, revokeApiKey } from '../data/api-keys';
import { enrolDevice, listDevices, sentJobsByDevice } from '../data/devices';
import { activeJobsByDevice, listRecentJobs } from '../data/jobs';
import { drainDevice } from '../dispatch/drain';
import type { Queryable } from '../db/database';
import type { DeviceLoads } from './pages';

const deviceLoads = async (db: Queryable, accountId: number): Promise<DeviceLoads> => ({
  active: await activeJobsByDevice(db, accountId),
  sent: await sentJobsByDevice(db, accountId),
});
import { createSession, deleteSession, SESSION_LIFETIME_MS } from '../data/sessions';
import { verifyPassword } from '../data/users';
import * as pages from './pages';
import { signInThrottle } from './sign-in-throttle';
import {
  checkCsrf,
  LOGIN_CSRF_COOKIE,
  loadSession,
  newCsrfToken,
  ownOrigin,
  portalHeaders,
  readCookie,
  requireSession,
  SESSION_COOKIE,
  setCookie,
  type PortalState,
} from './session';

type Form = Record<string, string | string[] | undefined>;
const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : [value].flat());
const one = (value: string | string[] | undefined): string => list(value)[0] ?? '';

/** The web portal: sign-in, keys, devices, credits. Server-rendered forms; every post carries a CSRF token. */
export function portalRouter(deps: RelayDeps): Router<PortalState> {
  const router = new Router<PortalState>();
  const form = formBody(64 * 1024);
  const nav = (ctx: ParameterizedContext<PortalState>): pages.Nav => ({
    csrf: ctx.state.session!.csrfToken,
    user: ctx.state.session!.user.username,
  });
  const body = (ctx: Context): Form => (ctx.request.body ?? {}) as Form;
  const accountOf = (ctx: ParameterizedContext<PortalState>): number => ctx.state.session!.user.accountId;
  const throttle = signInThrottle(deps.db, deps.log);

  router.use(portalHeaders, loadSession(deps));
  router.get('/', (ctx) => ctx.redirect('/portal'));

  router.get('/portal/login', (ctx) => {
    if (ctx.state.session) return ctx.redirect('/portal');
    const csrf = newCsrfToken();
    setCookie(ctx, deps, LOGIN_CSRF_COOKIE, csrf, 3600);
    ctx.type = 'html';
    ctx.body = pages.loginPage(csrf);
  });

  router.post('/portal/login', form, async (ctx) => {
    checkCsrf(ctx, body(ctx)._csrf, readCookie(ctx, LOGIN_CSRF_COOKIE));
    const username = one(body(ctx).username);
    const waitSeconds = await throttle.take(username, ctx.ip);
    if (waitSeconds !== undefined) {
      ctx.status = 429;
      ctx.set('Retry-After', String(waitSeconds));
      ctx.type = 'html';
      ctx.body = pages.loginPage(
        readCookie(ctx, LOGIN_CSRF_COOKIE)!,
        `Too many sign-in attempts for this account or from this address: try again in ${Math.ceil(waitSeconds / 60)} minute(s).`,
      );
      return;
    }
    const user = await verifyPassword(deps.db, username, one(body(ctx).password));
    if (!user) {
      ctx.status = 401;
      ctx.type = 'html';
      ctx.body = pages.loginPage(readCookie(ctx, LOGIN_CSRF_COOKIE)!, 'The user name or password is wrong.');
      return;
    }
    await throttle.succeeded(username, ctx.ip);
    const { cookieValue } = await createSession(deps.db, user);
    setCookie(ctx, deps, SESSION_COOKIE, cookieValue, SESSION_LIFETIME_MS / 1000);
    setCookie(ctx, deps, LOGIN_CSRF_COOKIE, '', 0);
    ctx.redirect('/portal');
  });

  router.post('/portal/logout', requireSession, form, async (ctx) => {
    checkCsrf(ctx, body(ctx)._csrf, ctx.state.session!.csrfToken);
    await deleteSession(deps.db, ctx.state.sessionCookie!);
    setCookie(ctx, deps, SESSION_COOKIE, '', 0);
    ctx.redirect('/portal/login');
  });

  router.get('/portal', requireSession, async (ctx) => {
    const accountId = accountOf(ctx);
    const [account, devices, load, jobs] = await Promise.all([
      getAccount(deps.db, accountId),
      listDevices(deps.db, accountId),
      deviceLoads(deps.db, accountId),
      listRecentJobs(deps.db, accountId),
    ]);
    ctx.type = 'html';
    ctx.body = pages.dashboardPage(nav(ctx), account, devices, load, jobs, deps.offlineAfterMs);
  });

  router.post('/portal/credits', requireSession, form, async (ctx) => {
    checkCsrf(ctx, body(ctx)._csrf, ctx.state.session!.csrfToken);
    const amount = Number(one(body(ctx).amount));
    if (!Number.isInteger(amount) || amount < 1 || amount > 1e9)
      throw new ApiError('INVALID_REQUEST', 'amount: must be a whole number of credits');
    await addCredits(deps.db, accountOf(ctx), amount);
    ctx.redirect('/portal');
  });

  const renderKeys = async (ctx: Context, message?: string) => {
    const accountId = accountOf(ctx);
    ctx.type = 'html';
    ctx.body = pages.keysPage(
      nav(ctx),
      await listApiKeys(deps.db, accountId),
      await listDevices(deps.db, accountId),
      message,
    );
  };
  router.get('/portal/keys', requireSession, (ctx) => renderKeys(ctx));

  router.post('/portal/keys', requireSession, form, async (ctx) => {
    const fields = body(ctx);
    checkCsrf(ctx, fields._csrf, ctx.state.session!.csrfToken);
    const expires = one(fields.expires);
    const expiresAt = expires === '' ? null : Date.parse(/Z|[+-]\d\d:\d\d$/.test(expires) ? expires : `${expires}Z`);
    try {
      const { key, plaintext } = await createApiKey(deps.db, accountOf(ctx), {
        name: one(fields.name),
        scopes: list(fields.scopes),
        pool: list(fields.pool),
        expiresAt: Number.isNaN(expiresAt) ? NaN : expiresAt,
        rpm: Number(one(fields.rpm) || 60),
        maxConcurrentJobs: Number(one(fields.concurrency) || 2),
      });
      // The answer to this post is the only page that ever holds the plaintext; reloading it creates no copy.
      ctx.type = 'html';
      ctx.body = pages.keyCreatedPage(nav(ctx), key, plaintext);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      ctx.status = 422;
      await renderKeys(ctx, error.message);
    }
  });

  router.post('/portal/keys/:id/revoke', requireSession, form, async (ctx) => {
    checkCsrf(ctx, body(ctx)._csrf, ctx.state.session!.csrfToken);
    await revokeApiKey(deps.db, accountOf(ctx), ctx.params.id);
    ctx.redirect('/portal/keys');
  });

  const renderDevices = async (ctx: Context, message?: string) => {
    const accountId = accountOf(ctx);
    ctx.type = 'html';
    ctx.body = pages.devicesPage(
      nav(ctx),
      await listDevices(deps.db, accountId),
      await deviceLoads(deps.db, accountId),
      deps.offlineAfterMs,
      message,
    );
  };
  router.get('/portal/devices', requireSession, (ctx) => renderDevices(ctx));

  for (const action of ['drain', 'undrain'] as const)
    router.post(`/portal/devices/:id/${action}`, requireSession, form, async (ctx) => {
      checkCsrf(ctx, body(ctx)._csrf, ctx.state.session!.csrfToken);
      await drainDevice(deps.db, accountOf(ctx), ctx.params.id, action === 'drain');
      ctx.redirect('/portal/devices');
    });

  router.post('/portal/devices', requireSession, form, async (ctx) => {
    checkCsrf(ctx, body(ctx)._csrf, ctx.state.session!.csrfToken);
    try {
      const { device, token } = await enrolDevice(deps.db, accountOf(ctx), one(body(ctx).name));
      ctx.type = 'html';
      ctx.body = pages.deviceEnrolledPage(nav(ctx), device, token, ownOrigin(ctx));
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      ctx.status = 422;
      await renderDevices(ctx, error.message);
    }
  });

  return router;
}
