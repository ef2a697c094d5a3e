/**
 * The relay's boundary against hostile input on PGlite: text PostgreSQL cannot store (NUL) in every field
 * a caller, an administrator or a device controls is refused with 422 naming the field, or stored
 * replaced, never a 500 with the database's words; portal sign-in is throttled by address and by account;
 * the Host allow-list refuses names it does not list.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { after, before, describe, it } from 'node:test';
import { hostAllowed } from '../../src/relay/allowed-hosts';
import { databaseErrors } from '../../src/relay/api/database-errors';
import { createApiKey, InvalidInputError, revokeApiKey } from '../../src/relay/data/api-keys';
import { enrolDevice, getDevice, revokeDevice } from '../../src/relay/data/devices';
import { SIGN_IN_LIMITS } from '../../src/relay/data/sign-in-windows';
import { setPassword, verifyPassword } from '../../src/relay/data/users';
import { resolveRelayOptions } from '../../src/relay/cli/relay-options';
import { errorMiddleware } from '../../src/http/error-middleware';
import { silentLogger } from '../../src/util/log';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, postJson, request, waitFor } from '../helpers/server';
import { connectFakeDevice, type FakeDevice } from './helpers/fake-device';
import { signInThrottle } from '../../src/relay/portal/sign-in-throttle';
import { postLogin, signIn, type PortalSession } from './helpers/portal';
import { ADMIN_PASSWORD, bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';
import { ENGLISH_VOICE } from './helpers/scenarios';

const NUL = '\u0000';

describe("the relay's boundary", () => {
  let relay: TestRelay;
  let key: string;
  let device: FakeDevice;
  let portal: PortalSession;
  const errors: string[] = [];
  before(async () => {
    relay = await startTestRelay({
      log: { info: () => undefined, warn: (m) => errors.push(m), error: (m) => errors.push(m) },
    });
    key = await makeKey(relay.db, relay.relay.accountId);
    const { token } = await makeDevice(relay.db, relay.relay.accountId, 'fake');
    device = await connectFakeDevice(relay.origin, token);
    portal = await signIn(relay.origin);
  });
  after(async () => {
    device?.close();
    await relay?.dispose();
  });

  it('refuses NUL in TTS text with 422 naming text, and stores nothing', async () => {
    for (const text of [`a${NUL}b`, NUL]) {
      const res = await postJson(`${relay.base}/tts/jobs`, { voiceId: ENGLISH_VOICE, text }, bearer(key));
      const body = assertErrorBody(res, 422, 'INVALID_REQUEST');
      assert.match(body.error.message, /^text: must not contain the NUL character/);
    }
    assert.equal((await relay.db.query('SELECT id FROM jobs')).length, 0);
    // The same request without NUL is accepted: the refusal is about the character, not the request.
    assert.equal(
      (await postJson(`${relay.base}/tts/jobs`, { voiceId: ENGLISH_VOICE, text: 'ab' }, bearer(key))).status,
      200,
    );
    assert.deepEqual(errors, [], 'nothing went wrong inside');
  });

  it('refuses an STT upload whose file name holds NUL with 422 naming file, and releases its place', async () => {
    // A raw NUL cannot be in a part's headers (busboy refuses the part); RFC 5987's filename* can encode one.
    for (const filename of [`x.wav"; filename*=UTF-8''a%00b.wav; x="`, `x.wav"; filename*=UTF-8''%00.wav; x="`]) {
      const res = await uploadMultipart(
        `${relay.base}/stt/jobs`,
        { language: 'en' },
        { source: Buffer.alloc(64, 1), filename },
        bearer(key),
      );
      const body = assertErrorBody(res, 422, 'INVALID_REQUEST');
      assert.match(body.error.message, /^file: its file name must not contain the NUL character/);
    }
    assert.equal(
      (await relay.db.query('SELECT id FROM jobs WHERE NOT accepted')).length,
      0,
      'no upload left holding a place',
    );
    assert.deepEqual(errors, []);
  });

  it('refuses NUL in device and key names in the portal with 422 naming the field, on the page', async () => {
    const devicePost = await portal.post('/portal/devices', { name: `box${NUL}1` }, '/portal/devices');
    assert.equal(devicePost.status, 422);
    assert.match(devicePost.body.toString(), /name: must not contain the NUL character/);
    const keyPost = await portal.post(
      '/portal/keys',
      { name: `key${NUL}`, scopes: 'jobs.read', pool: '*' },
      '/portal/keys',
    );
    assert.equal(keyPost.status, 422);
    assert.match(keyPost.body.toString(), /name: must not contain the NUL character/);
    const poolPost = await portal.post(
      '/portal/keys',
      { name: 'k', scopes: 'jobs.read', pool: `dev_${NUL}` },
      '/portal/keys',
    );
    assert.equal(poolPost.status, 422);
    assert.match(poolPost.body.toString(), /pool: must not contain the NUL character/);
    const revoke = await portal.post(`/portal/keys/${encodeURIComponent(`key_${NUL}`)}/revoke`, {}, '/portal/keys');
    assert.equal(revoke.status, 302, 'an id that cannot exist revokes nothing');
    assert.deepEqual(errors, []);
  });

  it('the data functions behind the portal and the CLI refuse or ignore NUL without asking the database', async () => {
    const accountId = relay.relay.accountId;
    await assert.rejects(enrolDevice(relay.db, accountId, `a${NUL}`), InvalidInputError);
    await assert.rejects(
      createApiKey(relay.db, accountId, { name: `a${NUL}`, scopes: ['jobs.read'], pool: ['*'] }),
      InvalidInputError,
    );
    assert.equal(await revokeApiKey(relay.db, accountId, NUL), false);
    assert.equal(await revokeDevice(relay.db, accountId, NUL), false);
    assert.equal(await getDevice(relay.db, accountId, NUL), undefined);
    assert.equal(await verifyPassword(relay.db, `admin${NUL}`, 'x'), undefined);
  });

  it('stores what a device reports with NUL replaced (U+FFFD), and the device stays linked', async () => {
    const res = await postJson(
      `${relay.base}/tts/jobs`,
      { voiceId: ENGLISH_VOICE, text: 'Reported with NUL.' },
      bearer(key),
    );
    assert.equal(res.status, 200, res.body.toString());
    const jobId = res.json().id;
    const assigned = await device.assignment(jobId);
    device.send({
      type: 'update',
      jobId: assigned.id,
      status: 'failed',
      progress: 5,
      phase: `p${NUL}`,
      error: `engine said ${NUL}`,
    });
    const job = await waitFor(
      'the failed job',
      async () => (await request(`${relay.base}/jobs/${jobId}`, { headers: bearer(key) })).json(),
      (j) => j.status === 'failed',
    );
    assert.equal(job.error, 'engine said \uFFFD');
    assert.equal(job.phase, 'p\uFFFD');
    device.send({ type: 'heartbeat', capabilities: device.capabilities({ name: `Voice${NUL}` }) });
    await waitFor(
      'the new capabilities',
      async () => (await request(`${relay.base}/voices`, { headers: bearer(key) })).json(),
      (page) => page.items?.[0]?.name === 'Voice\uFFFD',
    );
    assert.ok(device.open, 'the link is still up');
    assert.deepEqual(errors, []);
  });
  it('serves any Host when no allow-list is set', async () => {
    assert.equal((await request(`${relay.base}/health`, { headers: { Host: 'anything.example' } })).status, 200);
    assert.equal(
      (await request(`${relay.origin}/portal/login`, { headers: { Host: 'other.example:99' } })).status,
      200,
    );
  });

  it("a database error reaches no client in the database's words: unstorable text is 422, anything else a plain 500 logged in one line", async () => {
    const logged: string[] = [];
    const app = new Koa();
    app.silent = true;
    app.use(errorMiddleware(silentLogger, 'Remote API'));
    app.use(databaseErrors({ ...silentLogger, error: (m) => logged.push(m) }));
    app.use(async (ctx) => {
      if (ctx.path === '/nul') await relay.db.query('SELECT $1::text AS t', [`a${NUL}`]);
      else await relay.db.query('SELECT 1 / 0');
      ctx.body = {};
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const nul = assertErrorBody(await request(`${origin}/nul`), 422, 'INVALID_REQUEST');
      assert.doesNotMatch(nul.error.message, /UTF8|0x00|byte sequence/);
      const failed = assertErrorBody(await request(`${origin}/other`), 500, 'INTERNAL_ERROR');
      assert.doesNotMatch(failed.error.message, /division|22012/);
      assert.equal(logged.length, 1);
      assert.match(logged[0], /^GET \/other: database error 22012: division by zero$/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('portal sign-in throttling', () => {
  let relay: TestRelay;
  const warnings: string[] = [];
  const from = (address: string) => ({ 'X-Forwarded-For': address });
  before(async () => {
    // Behind a trusted proxy, so each attempt can come from the address the test names.
    relay = await startTestRelay({
      trustProxy: true,
      log: { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    });
  });
  after(() => relay?.dispose());

  it('by address: after 10 failed attempts the next is refused with 429 and Retry-After, even with the right password', async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++)
      assert.equal((await postLogin(relay.origin, `wrong ${i}`, from('203.0.113.1'))).status, 401);
    const refused = await postLogin(relay.origin, ADMIN_PASSWORD, from('203.0.113.1'));
    assert.equal(refused.status, 429);
    const wait = Number(refused.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= SIGN_IN_LIMITS.windowMs / 1000, `Retry-After ${refused.headers['retry-after']}`);
    assert.match(refused.body.toString(), /Too many sign-in attempts/);
    const again = await postLogin(relay.origin, 'wrong again', from('203.0.113.1'));
    assert.equal(again.status, 429);
    assert.ok(Number(again.headers['retry-after']) <= wait, 'a refused attempt does not lengthen the wait');
    assert.ok(
      warnings.some((w) => /sign-in from 203\.0\.113\.1 is refused/.test(w)),
      warnings.join('\n'),
    );
    // Another address is not held back by this one's failures.
    assert.equal((await postLogin(relay.origin, ADMIN_PASSWORD, from('203.0.113.2'))).status, 302);
  });

  it('the window slides: attempts just before and just after a quarter hour count together, and leave it 15 minutes later', async () => {
    const throttle = signInThrottle(relay.db, silentLogger);
    const quarter = Math.ceil(Date.now() / 900_000) * 900_000 + 900_000;
    const address = '192.0.2.7';
    for (let i = 0; i < 5; i++) assert.equal(await throttle.take('slider', address, quarter - 1_000), undefined);
    for (let i = 0; i < 5; i++) assert.equal(await throttle.take('slider', address, quarter + 1_000), undefined);
    const wait = await throttle.take('slider', address, quarter + 2_000);
    assert.ok(wait !== undefined && wait > 800 && wait <= 900, `refused for ${wait} s`);
    assert.equal(
      await throttle.take('slider', address, quarter + 2_000 + wait * 1000),
      undefined,
      'allowed once the oldest left the window',
    );
  });

  it('by account: 20 failures spread over 20 addresses refuse the account everywhere; a new password lets the admin back in', async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      assert.equal((await postLogin(relay.origin, `guess ${i}`, from(`198.51.100.${i + 1}`))).status, 401);
    }
    const refused = await postLogin(relay.origin, ADMIN_PASSWORD, from('198.51.100.200'));
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.ok(
      warnings.some((w) => /sign-in for "admin" is refused/.test(w)),
      warnings.join('\n'),
    );
    // Another account name is a different subject (and fails as usual).
    assert.equal((await postLogin(relay.origin, 'x', from('198.51.100.201'), 'someone')).status, 401);
    await setPassword(relay.db, 'admin', 'a brand new password');
    assert.equal((await postLogin(relay.origin, 'a brand new password', from('198.51.100.202'))).status, 302);
  });
});

describe('the Host allow-list', () => {
  let relay: TestRelay;
  before(async () => {
    relay = await startTestRelay({ allowedHosts: ['relay.example.test', '.example.org', '127.0.0.1'] });
  });
  after(() => relay?.dispose());

  const withHost = (path: string, host: string, headers: Record<string, string> = {}) =>
    request(`${relay.origin}${path}`, { headers: { Host: host, ...headers } });

  it('answers the listed names (any port, subdomains of a .domain entry) and refuses others with 403 HOST_NOT_ALLOWED', async () => {
    for (const host of [
      'relay.example.test',
      'RELAY.example.test:8443',
      'example.org',
      'a.b.example.org',
      `127.0.0.1:${relay.relay.port}`,
    ]) {
      assert.equal((await withHost('/v1/health', host)).status, 200, host);
    }
    for (const host of [
      'evil.test',
      'relay.example.test.evil.test',
      'notexample.org',
      'localhost',
      'relay.example.test@evil.test',
    ]) {
      for (const path of ['/v1/health', '/portal/login', '/v1/capabilities']) {
        const body = assertErrorBody(await withHost(path, host), 403, 'HOST_NOT_ALLOWED');
        assert.match(body.error.message, /allowed hosts/);
      }
    }
  });

  it('refuses a device link to another Host before looking at its token', async () => {
    const upgrade = {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    };
    assertErrorBody(await withHost('/v1/devices/connect', 'evil.test', upgrade), 403, 'HOST_NOT_ALLOWED');
    assertErrorBody(await withHost('/v1/devices/connect', 'relay.example.test', upgrade), 401, 'INVALID_API_KEY');
  });

  it('the option comes from --allowed-hosts or RELAY_ALLOWED_HOSTS; a Host that is no host name is refused', () => {
    // (Without the option any Host is served: see "the relay's boundary" above, whose relay has none.)
    for (const header of ['', ' ', 'a b', 'relay.example.test/x', '[::1'])
      assert.equal(hostAllowed(['relay.example.test', '::1'], header), false, header);
    assert.equal(hostAllowed(['::1'], '[::1]:80'), true);
    assert.equal(hostAllowed(undefined, 'anything'), true);
    assert.deepEqual(
      resolveRelayOptions({ 'allowed-hosts': 'Relay.Example.com, .example.org,[::1]' }, {}).allowedHosts,
      ['relay.example.com', '.example.org', '::1'],
    );
    assert.deepEqual(resolveRelayOptions({}, { RELAY_ALLOWED_HOSTS: 'a.test' }).allowedHosts, ['a.test']);
    assert.equal(resolveRelayOptions({}, {}).allowedHosts, undefined);
    assert.throws(() => resolveRelayOptions({ 'allowed-hosts': 'http://a.test/' }, {}), /--allowed-hosts/);
  });
});
