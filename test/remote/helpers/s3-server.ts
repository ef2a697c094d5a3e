/**
 * A real S3-compatible server for the relay tests: s3rver on loopback, storing in a temp folder, behind a
 * TCP relay of our own so a test can stop the server part-way through an upload at a chosen byte.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import net from 'node:net';
import { rm } from 'node:fs/promises';
import S3rver from 's3rver';
import type { S3StoreConfig } from '../../../src/relay/storage/s3-location';
import { tempDir } from '../../helpers/server';

/** s3rver's fixed credentials: it checks every request's signature against them. */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const TEST_BUCKET = 'speech-relay-test';

export interface TestS3 {
  /** What clients connect to (the TCP relay in front of s3rver). */
  readonly endpoint: string;
  readonly bucket: string;
  /** A store configuration for `prefix`. */
  config(prefix?: string): S3StoreConfig;
  /** The environment a relay child process reads its S3 settings from. */
  env(): Record<string, string>;
  /** Every object key in the bucket under `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  /** Stops the server once `bytes` more bytes have travelled towards it; resolves when it is down. */
  stopAfter(bytes: number): Promise<void>;
  /** Starts the server again on the same folder (after stopAfter). */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startS3(): Promise<TestS3> {
  const directory = await tempDir('speech-s3-');
  let server: S3rver | undefined;
  let serverPort = 0;
  const launch = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      directory,
      silent: true,
      configureBuckets: [{ name: TEST_BUCKET }],
    });
    serverPort = (await server.run()).port;
  };
  await launch();

  const sockets = new Set<net.Socket>();
  let trip: { left: number; fire: () => void } | undefined;
  const front = net.createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    if (!server) return void client.destroy();
    const upstream = net.connect(serverPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (trip) {
        trip.left -= chunk.length;
        if (trip.left <= 0) return trip.fire();
      }
      upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as net.AddressInfo).port}`;

  const stopServer = async () => {
    const running = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    await running?.close();
  };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_CREDENTIALS });

  return {
    endpoint,
    bucket: TEST_BUCKET,
    config: (prefix = '') => ({
      bucket: TEST_BUCKET,
      prefix,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3_CREDENTIALS,
    }),
    env: () => ({
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL_S3: endpoint,
    }),
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    stopAfter: (bytes) =>
      new Promise((resolve, reject) => {
        trip = {
          left: bytes,
          fire: () => {
            trip = undefined;
            stopServer().then(resolve, reject);
          },
        };
      }),
    restart: launch,
    async dispose() {
      trip = undefined;
      client.destroy();
      await stopServer();
      await new Promise((resolve) => front.close(resolve));
      await rm(directory, { recursive: true, force: true });
    },
  };
}
