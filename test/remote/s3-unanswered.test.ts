/**
 * An S3 endpoint that accepts connections and never answers (a real TCP server on loopback): the relay's
 * start-up check fails with a sentence instead of waiting for ever, and each call of a store on it fails as a
 * BlobStoreError that says no answer came, not as a "socket hang up" minutes later.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { BlobStoreError } from '../../src/relay/storage/blob-store';
import type { S3StoreConfig } from '../../src/relay/storage/s3-location';
import { S3BlobStore } from '../../src/relay/storage/s3-store';
import { startTestRelay } from './helpers/relay';
import { S3_CREDENTIALS } from './helpers/s3-server';

/** Fails the test rather than letting it hang when a call never settles (the defect this file pins). */
const NEVER = { timeout: 60_000 };

describe('an S3 endpoint that accepts and never answers', () => {
  let server: net.Server;
  const sockets = new Set<net.Socket>();
  let config: S3StoreConfig;
  before(async () => {
    server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.resume(); // reads whatever arrives, answers nothing
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    config = {
      bucket: 'silent-bucket',
      prefix: '',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3_CREDENTIALS,
      timeouts: { connectMs: 1_000, requestMs: 1_500, startupMs: 3_000 },
    };
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('the relay does not start: its start-up check fails with a sentence naming the endpoint', NEVER, async () => {
    await assert.rejects(startTestRelay({ s3: config }), (error: Error) => {
      assert.equal(error.name, 'BlobStoreError');
      assert.match(error.message, /^The S3 bucket "silent-bucket" at http:\/\/127\.0\.0\.1:\d+ did not answer/);
      assert.match(error.message, /within 3 s: check --s3-endpoint and that the storage server is up\.$/);
      return true;
    });
  });

  it('a read, a store and a delete each fail as a BlobStoreError saying no answer came', NEVER, async () => {
    const store = new S3BlobStore(config);
    try {
      const noAnswer = (what: string) => (error: Error) => {
        assert.ok(error instanceof BlobStoreError, `${error.name}: ${error.message}`);
        assert.match(error.message, new RegExp(`failed to ${what} jobs/x/.*: no answer within 1\\.5 s`));
        return true;
      };
      await assert.rejects(store.get('jobs/x/output.wav'), noAnswer('read'));
      await assert.rejects(store.put('jobs/x/input.wav', Readable.from([Buffer.alloc(1000, 1)])), noAnswer('store'));
      await assert.rejects(store.delete('jobs/x/input.wav'), noAnswer('delete'));
    } finally {
      store.close();
    }
  });
});
