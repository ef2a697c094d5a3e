/**
 * The relay's boundary against hostile input on PGlite: text PostgreSQL cannot store (NUL) in every field
 * a caller, an administrator or a device controls is refused with 422 naming the field, or stored
 * replaced, never a 500 with the database's words.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { after, before, describe, it } from 'node:test';
import { databaseErrors } from '../../src/relay/api/database-errors';
import { createApiKey, InvalidInputError, revokeApiKey } from '../../src/relay/data/api-keys';
import { enrolDevice, getDevice, revokeDevice } from '../../src/relay/data/devices';
import { verifyPassword } from '../../src/relay/data/users';
import { errorMiddleware } from '../../src/server/middleware/errors';
import { silentLogger } from '../../src/util/log';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, postJson, request, waitFor } from '../helpers/server';
import { connectFakeDevice, type FakeDevice } from './helpers/fake-device';
import { signIn, type PortalSession } from './helpers/portal';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';
import { ENGLISH_VOICE } from './helpers/scenarios';

const NUL = '\u0000';

describe('the relay\'s boundary', () => {
  let relay: TestRelay;
  let key: string;
  let device: FakeDevice;
  let portal: PortalSession;
  const errors: string[] = [];
  before(async () => {
    relay = await startTestRelay({ log: { info: () => undefined, warn: (m) => errors.push(m), error: (m) => errors.push(m) } });
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
    assert.equal((await postJson(`${relay.base}/tts/jobs`, { voiceId: ENGLISH_VOICE, text: 'ab' }, bearer(key))).status, 200);
    assert.deepEqual(errors, [], 'nothing went wrong inside');
  });

  it('refuses an STT upload whose file name holds NUL with 422 naming file, and releases its place', async () => {
    // A raw NUL cannot be in a part's headers (busboy refuses the part); RFC 5987's filename* can encode one.
    for (const filename of [`x.wav"; filename*=UTF-8''a%00b.wav; x="`, `x.wav"; filename*=UTF-8''%00.wav; x="`]) {
      const res = await uploadMultipart(`${relay.base}/stt/jobs`, { language: 'en' }, { source: Buffer.alloc(64, 1), filename }, bearer(key));
      const body = assertErrorBody(res, 422, 'INVALID_REQUEST');
      assert.match(body.error.message, /^file: its file name must not contain the NUL character/);
    }
    assert.equal((await relay.db.query('SELECT id FROM jobs WHERE NOT accepted')).length, 0, 'no upload left holding a place');
    assert.deepEqual(errors, []);
  });

  it('refuses NUL in device and key names in the portal with 422 naming the field, on the page', async () => {
    const devicePost = await portal.post('/portal/devices', { name: `box${NUL}1` }, '/portal/devices');
    assert.equal(devicePost.status, 422);
    assert.match(devicePost.body.toString(), /name: must not contain the NUL character/);
    const keyPost = await portal.post('/portal/keys', { name: `key${NUL}`, scopes: 'jobs.read', pool: '*' }, '/portal/keys');
    assert.equal(keyPost.status, 422);
    assert.match(keyPost.body.toString(), /name: must not contain the NUL character/);
    const poolPost = await portal.post('/portal/keys', { name: 'k', scopes: 'jobs.read', pool: `dev_${NUL}` }, '/portal/keys');
    assert.equal(poolPost.status, 422);
    assert.match(poolPost.body.toString(), /pool: must not contain the NUL character/);
    const revoke = await portal.post(`/portal/keys/${encodeURIComponent(`key_${NUL}`)}/revoke`, {}, '/portal/keys');
    assert.equal(revoke.status, 302, 'an id that cannot exist revokes nothing');
    assert.deepEqual(errors, []);
  });

  it('the data functions behind the portal and the CLI refuse or ignore NUL without asking the database', async () => {
    const accountId = relay.relay.accountId;
    await assert.rejects(enrolDevice(relay.db, accountId, `a${NUL}`), InvalidInputError);
    await assert.rejects(createApiKey(relay.db, accountId, { name: `a${NUL}`, scopes: ['jobs.read'], pool: ['*'] }), InvalidInputError);
    assert.equal(await revokeApiKey(relay.db, accountId, NUL), false);
    assert.equal(await revokeDevice(relay.db, accountId, NUL), false);
    assert.equal(await getDevice(relay.db, accountId, NUL), undefined);
    assert.equal(await verifyPassword(relay.db, `admin${NUL}`, 'x'), undefined);
  });

  it('stores what a device reports with NUL replaced (U+FFFD), and the device stays linked', async () => {
    const res = await postJson(`${relay.base}/tts/jobs`, { voiceId: ENGLISH_VOICE, text: 'Reported with NUL.' }, bearer(key));
    assert.equal(res.status, 200, res.body.toString());
    const jobId = res.json().id;
    const assigned = await device.assignment(jobId);
    device.send({ type: 'update', jobId: assigned.id, status: 'failed', progress: 5, phase: `p${NUL}`, error: `engine said ${NUL}` });
    const job = await waitFor('the failed job', async () => (await request(`${relay.base}/jobs/${jobId}`, { headers: bearer(key) })).json(), (j) => j.status === 'failed');
    assert.equal(job.error, 'engine said \uFFFD');
    assert.equal(job.phase, 'p\uFFFD');
    device.send({ type: 'heartbeat', capabilities: device.capabilities({ name: `Voice${NUL}` }) });
    await waitFor('the new capabilities', async () => (await request(`${relay.base}/voices`, { headers: bearer(key) })).json(),
      (page) => page.items?.[0]?.name === 'Voice\uFFFD');
    assert.ok(device.open, 'the link is still up');
    assert.deepEqual(errors, []);
  });
  it('a database error reaches no client in the database\'s words: unstorable text is 422, anything else a plain 500 logged in one line', async () => {
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
