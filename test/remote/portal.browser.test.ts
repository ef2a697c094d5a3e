/**
 * The portal in a real browser (Debian's Chromium driven by playwright-core): sign in, see the device
 * online, create a key, use it with curl, revoke it, see 401. Plus the cookie flags and CSRF refusals.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { request } from '../helpers/server';
import { startDevice, type TestDevice } from './helpers/device';
import { ADMIN_PASSWORD, makeDevice, startTestRelay, type TestRelay } from './helpers/relay';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM}: apt-get install chromium`;
const curl = promisify(execFile);

/** The launch flags that work on these machines (see shared/docs/vscode-integration-tests.md). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--no-pings',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

async function curlStatus(url: string, key: string): Promise<{ status: number; body: string }> {
  const { stdout } = await curl('curl', ['-s', '-w', '\n%{http_code}', '-H', `Authorization: Bearer ${key}`, url]);
  const lines = stdout.split('\n');
  return { status: Number(lines.pop()), body: lines.join('\n') };
}

describe('the relay portal in Chromium', { skip: missing }, () => {
  let relay: TestRelay;
  let device: TestDevice;
  let deviceId: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    relay = await startTestRelay();
    const enrolment = await makeDevice(relay.db, relay.relay.accountId, 'render box');
    deviceId = enrolment.id;
    device = await startDevice({ relayOrigin: relay.origin, token: enrolment.token, stt: true });
    await device.connected();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await (await browser.newContext()).newPage();
  });
  after(async () => {
    await browser?.close();
    await device?.dispose();
    await relay?.dispose();
  });

  it('signs in (a wrong password is refused) and shows the device online with its capabilities', async () => {
    await page.goto(`${relay.origin}/portal`);
    assert.match(page.url(), /\/portal\/login$/);
    await page.fill('input[name=password]', 'not the password');
    await page.click('button[type=submit]');
    assert.match((await page.textContent('[role=alert]')) ?? '', /wrong/);
    await page.fill('input[name=password]', ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${relay.origin}/portal`);
    const row = page.locator(`tr[data-device="${deviceId}"]`);
    assert.match(await row.innerText(), /render box\s+online/);
    assert.match(await row.innerText(), /ggml-synthetic-random\.bin/);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'relay_session');
    assert.ok(cookie, 'a session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
  });

  it('creates a key shown once, which works with curl until it is revoked in the portal', async () => {
    await page.goto(`${relay.origin}/portal/keys`);
    await page.fill('input[name=name]', 'browser key');
    await page.check('input[name=pool][value="*"]');
    await page.click('form[action="/portal/keys"] button[type=submit]');
    const key = (await page.textContent('#new-key'))!.trim();
    assert.match(key, /^ssk_live_[A-Za-z0-9]{40}$/);

    const ok = await curlStatus(`${relay.base}/capabilities`, key);
    assert.equal(ok.status, 200, ok.body);
    assert.equal(JSON.parse(ok.body).devices.ready, 1);

    await page.goto(`${relay.origin}/portal/keys`);
    assert.ok(!(await page.content()).includes(key), 'the key is never rendered again');
    const keyRow = page.locator('tr', { hasText: 'browser key' });
    await keyRow.locator('button', { hasText: 'Revoke' }).click();
    await page.waitForURL(`${relay.origin}/portal/keys`);
    assert.match(await page.locator('tr', { hasText: 'browser key' }).innerText(), /revoked/);

    const refused = await curlStatus(`${relay.base}/capabilities`, key);
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse(refused.body).error.code, 'INVALID_API_KEY');
  });

  it('enrols a device and shows its token once', async () => {
    await page.goto(`${relay.origin}/portal/devices`);
    await page.fill('input[name=name]', 'new laptop');
    await page.click('form[action="/portal/devices"] button[type=submit]');
    assert.match((await page.textContent('#device-token'))!.trim(), /^ssd_[A-Za-z0-9]{40}$/);
    await page.goto(`${relay.origin}/portal/devices`);
    assert.match(await page.innerText('body'), /new laptop\s+offline/);
  });

  it("refuses posts without the session's CSRF token or from another origin", async () => {
    const cookie = (await page.context().cookies()).find((c) => c.name === 'relay_session')!;
    const headers = { Cookie: `relay_session=${cookie.value}`, 'Content-Type': 'application/x-www-form-urlencoded' };
    const noToken = await request(`${relay.origin}/portal/keys`, {
      method: 'POST',
      headers,
      body: 'name=x&scopes=jobs.read&pool=*',
    });
    assert.equal(noToken.status, 403);
    assert.equal(noToken.json().error.code, 'CSRF_REJECTED');
    const html = await page.goto(`${relay.origin}/portal/keys`).then(() => page.content());
    const token = /name="_csrf" value="([^"]+)"/.exec(html)![1];
    const foreign = await request(`${relay.origin}/portal/keys`, {
      method: 'POST',
      headers: { ...headers, Origin: 'https://evil.example' },
      body: `_csrf=${token}&name=x&scopes=jobs.read&pool=*`,
    });
    assert.equal(foreign.status, 403, foreign.body.toString().slice(0, 300));
    const page2 = await request(`${relay.origin}/portal`, { headers: { Cookie: 'relay_session=forged' } });
    assert.equal(page2.status, 302);
    assert.equal(page2.headers.location, '/portal/login');
    assert.match(String(page2.headers['content-security-policy']), /frame-ancestors 'none'/);
  });
});
