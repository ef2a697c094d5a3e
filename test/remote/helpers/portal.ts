/** The portal spoken to as a browser would, over plain HTTP: sign in, then post its forms with the CSRF token. */
import { request, type RawResponse } from '../../helpers/server';
import { ADMIN_PASSWORD } from './relay';

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const cookieOf = (res: RawResponse, name: string): string | undefined =>
  [res.headers['set-cookie'] ?? []]
    .flat()
    .map((c) => new RegExp(`^${name}=([^;]*)`).exec(c)?.[1])
    .find((v) => v !== undefined);
const csrfIn = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)![1];

/** The sign-in form: its double-submit cookie and token. */
export async function loginForm(origin: string): Promise<{ cookie: string; csrf: string }> {
  const page = await request(`${origin}/portal/login`);
  return { cookie: `relay_login_csrf=${cookieOf(page, 'relay_login_csrf')}`, csrf: csrfIn(page.body.toString()) };
}

/** Posts the sign-in form once; `headers` adds to (or replaces) the browser's. */
export async function postLogin(
  origin: string,
  password: string,
  headers: Record<string, string> = {},
  username = 'admin',
): Promise<RawResponse> {
  const { cookie, csrf } = await loginForm(origin);
  return request(`${origin}/portal/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, ...headers },
    body: form({ _csrf: csrf, username, password }),
  });
}

export interface PortalSession {
  cookie: string;
  csrf: string;
  /** Posts a form of the portal (after loading `page` for its token) and returns the answer. */
  post(path: string, fields: Record<string, string>, page: string): Promise<RawResponse>;
}

export async function signIn(origin: string, password = ADMIN_PASSWORD): Promise<PortalSession> {
  const res = await postLogin(origin, password);
  if (res.status !== 302) throw new Error(`Sign-in failed: ${res.status} ${res.body.toString().slice(0, 300)}`);
  const cookie = `relay_session=${cookieOf(res, 'relay_session')}`;
  return {
    cookie,
    csrf: '',
    async post(path, fields, page) {
      const csrf = csrfIn((await request(`${origin}${page}`, { headers: { Cookie: cookie } })).body.toString());
      return request(`${origin}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
        body: form({ _csrf: csrf, ...fields }),
      });
    },
  };
}
