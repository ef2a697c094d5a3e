/**
 * The relay's side of multipart uploads (POST /stt/jobs): hostile part layouts get the same 422 answers as
 * on the Local API, promptly, and leave nothing in the relay's storage or its job table.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertErrorBody, request, type RawResponse } from '../helpers/server';
import { startDevice, type TestDevice } from './helpers/device';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';

const BOUNDARY = 'relay-upload-test';

/** One multipart body written in a single piece, so the parser sees every part at once. */
function multipart(parts: Array<{ disposition: string; body: string }>): Buffer {
  return Buffer.from(
    parts.map((part) => `--${BOUNDARY}\r\nContent-Disposition: ${part.disposition}\r\n\r\n${part.body}\r\n`).join('') + `--${BOUNDARY}--\r\n`,
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('Relay uploads: malformed multipart bodies', { timeout: 120_000 }, () => {
  let relay: TestRelay;
  let device: TestDevice;
  let key: string;

  const post = (body: Buffer): Promise<RawResponse> =>
    request(`${relay.base}/stt/jobs`, {
      method: 'POST',
      headers: { ...bearer(key), 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': String(body.length) },
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

  it('answers an unknown file part followed by the media with one 422, promptly, and stores neither', { timeout: 10_000 }, async () => {
    const res = await post(multipart([
      { disposition: 'form-data; name="other"; filename="x.wav"', body: 'RIFF....' },
      { disposition: 'form-data; name="file"; filename="a.wav"', body: 'RIFF....' },
    ]));
    assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /other: is not a known file field/);
    await assertNothingKept();
  });

  it('says that the media needs a filename when "file" is sent as a plain field, however long', { timeout: 10_000 }, async () => {
    for (const body of ['RIFF....', 'x'.repeat(4096)]) {
      const res = await post(multipart([{ disposition: 'form-data; name="file"', body }]));
      assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /^file: must be sent as a file, with a filename/);
    }
    await assertNothingKept();
  });
});
