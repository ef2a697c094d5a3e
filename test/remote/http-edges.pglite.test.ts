/**
 * The relay at the edges of HTTP: hostile multipart layouts on POST /stt/jobs get the same 422 answers as
 * on the Local API, promptly, and leave nothing in storage or the job table; what Node would answer
 * before the app runs (CONNECT, odd Expect, no Host) and a JSON body in another charset get the error body.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rawExchange, rawJson } from '../helpers/raw-http';
import { assertErrorBody, request, type RawResponse } from '../helpers/server';
import { startDevice, type TestDevice } from './helpers/device';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';

const BOUNDARY = 'relay-upload-test';

/** One multipart body written in a single piece, so the parser sees every part at once. */
function multipart(parts: Array<{ disposition: string; body: string }>): Buffer {
  return Buffer.from(
    parts.map((part) => `--${BOUNDARY}\r\nContent-Disposition: ${part.disposition}\r\n\r\n${part.body}\r\n`).join('') +
      `--${BOUNDARY}--\r\n`,
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('Relay at the edges of HTTP', { timeout: 120_000 }, () => {
  let relay: TestRelay;
  let device: TestDevice;
  let key: string;

  const post = (body: Buffer): Promise<RawResponse> =>
    request(`${relay.base}/stt/jobs`, {
      method: 'POST',
      headers: {
        ...bearer(key),
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': String(body.length),
      },
      body,
    });

  /** Nothing of a refused upload stays behind: no blob (complete or partial), no unaccepted job row. */
  async function assertNothingKept(): Promise<void> {
    assert.deepEqual(await filesUnder(path.join(relay.dataDir, 'storage')), []);
    const rows = await relay.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs');
    assert.equal(rows[0].n, 0);
  }

  before(async () => {
    relay = await startTestRelay();
    const enrolment = await makeDevice(relay.db, relay.relay.accountId, 'stt box');
    device = await startDevice({ relayOrigin: relay.origin, token: enrolment.token, stt: true });
    await device.connected();
    key = await makeKey(relay.db, relay.relay.accountId);
  });
  after(async () => {
    await device?.dispose();
    await relay?.dispose();
  });

  it('answers a file part without a name with 422, not a 500', { timeout: 10_000 }, async () => {
    const res = await post(multipart([{ disposition: 'form-data; filename="a.wav"', body: 'RIFF....' }]));
    assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /a part without a name/);
    await assertNothingKept();
  });

  it('answers a form field without a name with 422', { timeout: 10_000 }, async () => {
    const res = await post(multipart([{ disposition: 'form-data', body: 'en' }]));
    assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /has no name/);
    await assertNothingKept();
  });

  it(
    'answers an unknown file part followed by the media with one 422, promptly, and stores neither',
    { timeout: 10_000 },
    async () => {
      const res = await post(
        multipart([
          { disposition: 'form-data; name="other"; filename="x.wav"', body: 'RIFF....' },
          { disposition: 'form-data; name="file"; filename="a.wav"', body: 'RIFF....' },
        ]),
      );
      assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /other: is not a known file field/);
      await assertNothingKept();
    },
  );

  it(
    'says that the media needs a filename when "file" is sent as a plain field, however long',
    { timeout: 10_000 },
    async () => {
      for (const body of ['RIFF....', 'x'.repeat(4096)]) {
        const res = await post(multipart([{ disposition: 'form-data; name="file"', body }]));
        assert.match(
          assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
          /^file: must be sent as a file, with a filename/,
        );
      }
      await assertNothingKept();
    },
  );

  it(
    'answers CONNECT with 405 and the error body, an odd Expect with 417, HTTP/1.1 without Host with 400',
    { timeout: 10_000 },
    async () => {
      const port = relay.relay.port;
      const connect = await rawExchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      assert.match(connect, /^HTTP\/1\.1 405 /);
      assert.match(connect, /\r\nAllow: GET, HEAD, POST, PUT, OPTIONS\r\n/);
      assert.equal(rawJson(connect).error.code, 'METHOD_NOT_ALLOWED');
      const expect = await rawExchange(port, 'GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 999-weird\r\n\r\n');
      assert.match(expect, /^HTTP\/1\.1 417 /);
      assert.equal(rawJson(expect).error.code, 'INVALID_REQUEST');
      const noHost = await rawExchange(port, 'GET /v1/health HTTP/1.1\r\n\r\n');
      assert.match(noHost, /^HTTP\/1\.1 400 /);
      assert.match(rawJson(noHost).error.message, /Host/);
    },
  );

  it('refuses a JSON body declared in another charset than UTF-8 with 422', { timeout: 10_000 }, async () => {
    const res = await request(`${relay.base}/tts/jobs`, {
      method: 'POST',
      headers: { ...bearer(key), 'Content-Type': 'application/json; charset=iso-8859-1' },
      body: Buffer.from('{"voiceId":"x","text":"caf\xe9"}', 'latin1'),
    });
    assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /UTF-8.*iso-8859-1/);
  });
});
