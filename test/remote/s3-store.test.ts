/**
 * The relay's S3 blob store against a real S3-compatible server (s3rver on loopback): round trips,
 * multipart uploads streamed in bounded parts, the size limit, the key prefix, and the start-up check;
 * and how the relay's options name the bucket, endpoint, region and credentials.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { resolveRelayOptions } from '../../src/relay/cli/relay-options';
import { BlobStoreError, BlobTooLargeError } from '../../src/relay/storage/blob-store';
import { UsageError } from '../../src/util/usage-error';
import { parseS3Url } from '../../src/relay/storage/s3-location';
import { openS3BlobStore, PART_BYTES, S3BlobStore } from '../../src/relay/storage/s3-store';
import { startS3, type TestS3 } from './helpers/s3-server';

/** `bytes` of a repeating pattern, produced chunk by chunk as the reader asks (never all at once). */
function patterned(bytes: number, chunk = 256 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return void this.push(null);
      const size = Math.min(chunk, bytes - sent);
      const buffer = Buffer.alloc(size);
      for (let i = 0; i < size; i++) buffer[i] = (sent + i) % 251;
      sent += size;
      this.push(buffer);
    },
  });
}

async function digest(stream: Readable): Promise<{ sha: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha: hash.digest('hex'), bytes };
}

describe('S3BlobStore on a real S3-compatible server', () => {
  let s3: TestS3;
  let store: S3BlobStore;

  before(async () => {
    s3 = await startS3();
    store = await openS3BlobStore(s3.config());
  });

  after(async () => {
    store?.close();
    await s3?.dispose();
  });

  it('puts from a stream, gets it back as a stream with its size, and deletes it', async () => {
    const bytes = await store.put(
      'jobs/a1/input.wav',
      Readable.from([Buffer.from('RIFF'), Buffer.from(' and the rest')]),
    );
    assert.equal(bytes, 17);
    const blob = await store.get('jobs/a1/input.wav');
    assert.ok(blob);
    assert.equal(blob.bytes, 17);
    assert.equal((await digest(blob.stream)).sha, createHash('sha256').update('RIFF and the rest').digest('hex'));
    await store.delete('jobs/a1/input.wav');
    assert.equal(await store.get('jobs/a1/input.wav'), undefined);
    await store.delete('jobs/a1/input.wav'); // deleting what is gone is not an error
  });

  it('streams a body of several parts through a multipart upload, byte for byte', async () => {
    const size = 3 * PART_BYTES + 12345;
    const expected = await digest(patterned(size));
    assert.equal(await store.put('jobs/big/output.wav', patterned(size)), size);
    const blob = await store.get('jobs/big/output.wav');
    assert.ok(blob);
    assert.equal(blob.bytes, size);
    assert.deepEqual(await digest(blob.stream), expected);
    await store.delete('jobs/big/output.wav');
  });

  it('past maxBytes the upload is aborted with BlobTooLargeError and no object appears', async () => {
    await assert.rejects(
      store.put('jobs/limit/input.wav', patterned(2 * PART_BYTES + 10), { maxBytes: PART_BYTES + 100 }),
      BlobTooLargeError,
    );
    await assert.rejects(store.put('jobs/limit/small.wav', patterned(1000), { maxBytes: 999 }), BlobTooLargeError);
    assert.deepEqual(await s3.keys('jobs/limit/'), []);
  });

  it('a failing source fails the put with its own error and leaves no object', async () => {
    let sent = 0;
    const source = new Readable({
      read() {
        sent += 1;
        if (sent > 30) return void this.destroy(new Error('the sender went away'));
        this.push(Buffer.alloc(256 * 1024, 1));
      },
    });
    await assert.rejects(store.put('jobs/gone/input.wav', source), /the sender went away/);
    assert.deepEqual(await s3.keys('jobs/gone/'), []);
  });

  it(
    'a source destroyed before its end, without an error, fails the put rather than hanging it',
    { timeout: 30_000 },
    async () => {
      let sent = 0;
      const source = new Readable({
        read() {
          sent += 1;
          if (sent > 3) return void this.destroy();
          this.push(Buffer.alloc(64 * 1024, 2));
        },
      });
      await assert.rejects(store.put('jobs/cut-short/input.wav', source), /premature close/i);
      assert.deepEqual(await s3.keys('jobs/cut-short/'), []);
    },
  );

  it('keeps every key under its prefix, apart from another prefix in the same bucket', async () => {
    const teamA = new S3BlobStore(s3.config('teams/a/relay'));
    const teamB = new S3BlobStore(s3.config('teams/b'));
    try {
      await teamA.put('jobs/p1/input.wav', Readable.from([Buffer.from('a')]));
      assert.deepEqual(await s3.keys('teams/'), ['teams/a/relay/jobs/p1/input.wav']);
      assert.equal(await teamB.get('jobs/p1/input.wav'), undefined);
      assert.equal(await store.get('jobs/p1/input.wav'), undefined);
      await teamA.delete('jobs/p1/input.wav');
      assert.deepEqual(await s3.keys('teams/'), []);
    } finally {
      teamA.close();
      teamB.close();
    }
  });

  it('refuses keys that could leave the prefix', async () => {
    await assert.rejects(store.get('../outside'), TypeError);
    await assert.rejects(store.put('jobs/../../x', Readable.from([Buffer.from('x')])), TypeError);
  });

  it('parses s3:// locations and names what is wrong with a bad one', () => {
    assert.deepEqual(parseS3Url('s3://speech-bucket'), { bucket: 'speech-bucket', prefix: '' });
    assert.deepEqual(parseS3Url('s3://speech-bucket/relay/prod/'), { bucket: 'speech-bucket', prefix: 'relay/prod' });
    assert.throws(() => parseS3Url('http://speech-bucket/x'), /Expected --storage s3:\/\/bucket\/prefix/);
    assert.throws(() => parseS3Url('s3://Upper_Case/x'), /bucket name/);
    assert.throws(() => parseS3Url('s3://speech-bucket/../x'), TypeError);
  });

  it('at start, a missing bucket and refused credentials each give one clear sentence', async () => {
    await assert.rejects(openS3BlobStore({ ...s3.config(), bucket: 'no-such-bucket' }), (error: Error) => {
      assert.ok(error instanceof BlobStoreError);
      assert.match(
        error.message,
        /^The S3 bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+: create it, or correct --storage\.$/,
      );
      return true;
    });
    await assert.rejects(
      openS3BlobStore({ ...s3.config(), credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' } }),
      (error: Error) => {
        assert.ok(error instanceof BlobStoreError);
        assert.match(error.message, /refused the credentials \(HTTP 403\): check AWS_ACCESS_KEY_ID/);
        return true;
      },
    );
  });

  it('the server stopped mid-upload: the put fails with a readable BlobStoreError and nothing is left', async () => {
    const stopped = s3.stopAfter(PART_BYTES + 512 * 1024); // during the second part
    await assert.rejects(store.put('jobs/cut/output.wav', patterned(3 * PART_BYTES)), (error: Error) => {
      assert.ok(error instanceof BlobStoreError, String(error));
      assert.match(
        error.message,
        /^The relay's object storage \(bucket "speech-relay-test" at http:\/\/127\.0\.0\.1:\d+\) failed to store jobs\/cut\/output\.wav: /,
      );
      return true;
    });
    await stopped;
    await assert.rejects(store.get('jobs/cut/output.wav'), BlobStoreError, 'a read while the server is down fails too');
    await s3.restart();
    assert.deepEqual(await s3.keys('jobs/cut/'), []);
    assert.equal(await store.get('jobs/cut/output.wav'), undefined);
  });
});

describe('relay options for S3 storage and metrics', () => {
  const env = { AWS_ACCESS_KEY_ID: 'AKIAENV', AWS_SECRET_ACCESS_KEY: 'env-secret', AWS_SESSION_TOKEN: 'env-session' };

  it('takes the bucket from --storage and the rest from the standard AWS variables', () => {
    const options = resolveRelayOptions(
      { storage: 's3://team-speech/relay/' },
      { ...env, AWS_REGION: 'eu-central-1', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000/', RELAY_S3_PATH_STYLE: '1' },
    );
    assert.deepEqual(options.s3, {
      bucket: 'team-speech',
      prefix: 'relay',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAENV', secretAccessKey: 'env-secret', sessionToken: 'env-session' },
    });
    assert.equal(
      resolveRelayOptions({ storage: 's3://team-speech' }, { ...env, AWS_ENDPOINT_URL: 'https://s3.example.com' }).s3
        ?.endpoint,
      'https://s3.example.com',
    );
    const plain = resolveRelayOptions({}, { ...env, RELAY_STORAGE: 's3://team-speech' }).s3;
    assert.equal(plain?.region, 'us-east-1');
    assert.equal(plain?.forcePathStyle, false);
    assert.equal(plain?.endpoint, undefined);
  });

  it('flags win over the environment, and a session token never goes with keys from flags', () => {
    const options = resolveRelayOptions(
      {
        storage: 's3://team-speech',
        's3-endpoint': 'https://minio.internal:9000',
        's3-region': 'auto',
        's3-path-style': true,
        's3-access-key-id': 'FLAGKEY',
        's3-secret-access-key': 'flag-secret',
      },
      { ...env, AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_S3: 'http://other:1' },
    );
    assert.deepEqual(options.s3, {
      bucket: 'team-speech',
      prefix: '',
      endpoint: 'https://minio.internal:9000',
      region: 'auto',
      forcePathStyle: true,
      credentials: { accessKeyId: 'FLAGKEY', secretAccessKey: 'flag-secret', sessionToken: undefined },
    });
  });

  it('refuses what cannot work with a usage error', () => {
    assert.throws(
      () => resolveRelayOptions({ storage: 's3://team-speech' }, {}),
      (e: Error) => e instanceof UsageError && /needs credentials/.test(e.message),
    );
    assert.throws(
      () => resolveRelayOptions({ storage: '/srv/blobs' }, env),
      (e: Error) => e instanceof UsageError && /s3:\/\/bucket\/prefix/.test(e.message),
    );
    assert.throws(() => resolveRelayOptions({ storage: 's3://team-speech', 'storage-dir': '/srv' }, env), /not both/);
    assert.throws(
      () => resolveRelayOptions({ storage: 's3://team-speech', 's3-endpoint': 'minio:9000' }, env),
      /--s3-endpoint/,
    );
    assert.throws(() => resolveRelayOptions({ 'metrics-token': 'short' }, {}), /at least 16 printable characters/);
    assert.equal(
      resolveRelayOptions({}, { RELAY_METRICS_TOKEN: 'a-long-enough-token-1234' }).metricsToken,
      'a-long-enough-token-1234',
    );
    assert.equal(resolveRelayOptions({}, {}).metricsToken, undefined);
    assert.equal(resolveRelayOptions({}, env).s3, undefined, 'no --storage: the folder');
  });
});
