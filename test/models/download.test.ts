import assert from 'node:assert/strict';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { downloadFile, type DownloadOptions, type FileProgress } from '../../src/models/download';
import { ModelError } from '../../src/models/model-error';
import { filesUnder, selfSignedCertificate } from '../helpers/files';
import { dropMidFile, fixture, redirect, serve, stallAfter, startFixtureServer, status, type FixtureServer } from '../helpers/model-server';
import { tempDir } from '../helpers/temp';
import { startTestProxy } from '../helpers/test-proxy';

const NO_PROXY_ENV = {};
const SIZE = 256 * 1024;

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<ModelError> {
  const error = await promise.then(
    () => assert.fail(`expected ${code}, but it resolved`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

describe('downloadFile', () => {
  let server: FixtureServer;
  let dir: string;
  let partialPath: string;
  const data = fixture(SIZE);

  before(async () => {
    server = await startFixtureServer();
    dir = await tempDir('speech-studio download ');
    partialPath = path.join(dir, 'model.bin.partial');
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const emptyDir = async (): Promise<void> => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir);
  };

  const options = (route: string, extra: Partial<DownloadOptions> = {}): DownloadOptions => ({
    url: `${server.base}${route}`,
    partialPath,
    expectedSize: SIZE,
    expectedSha256: data.sha256,
    env: NO_PROXY_ENV,
    retries: 0,
    retryDelayMs: 1,
    progressIntervalMs: 0,
    ...extra,
  });

  it('downloads the whole file, verifies its sha256 and reports bytes, percent, speed and ETA', async () => {
    server.route('/full', serve(data.bytes));
    const progress: FileProgress[] = [];
    const result = await downloadFile(options('/full', { onProgress: (p) => progress.push(p) }));
    assert.deepEqual(result, { sha256: data.sha256, bytes: SIZE, resumedFrom: 0 });
    assert.ok((await readFile(partialPath)).equals(data.bytes));
    const last = progress.filter((p) => p.phase === 'downloading').at(-1);
    assert.equal(last?.bytes, SIZE);
    assert.equal(last?.totalBytes, SIZE);
    assert.equal(last?.percent, 100);
    assert.equal(last?.etaSeconds, 0);
    assert.ok(progress.every((p) => typeof p.bytesPerSecond === 'number'));
    assert.equal(progress.at(-1)?.phase, 'verifying');
    await rm(partialPath, { force: true });
  });

  it('resumes with a Range request after the connection drops mid-file', async () => {
    const dropping = dropMidFile(data.bytes, 100_000);
    server.route('/drop', dropping);
    const result = await downloadFile(options('/drop', { retries: 2, onProgress: (p) => p.bytes >= 100_000 && dropping.drop() }));
    assert.equal(result.sha256, data.sha256);
    assert.ok(result.resumedFrom > 0, 'the second request resumed');
    const [first, second] = server.requestsTo('/drop');
    assert.equal(first.headers.range, undefined);
    assert.equal(second.headers.range, `bytes=${result.resumedFrom}-`);
    assert.equal(second.headers['if-range'], '"fixture"');
    assert.ok((await readFile(partialPath)).equals(data.bytes));
    await rm(partialPath, { force: true });
  });

  it('keeps the partial file after a drop so a later run resumes it', async () => {
    const dropping = dropMidFile(data.bytes, 50_000);
    server.route('/later', dropping);
    await rejectsWith(downloadFile(options('/later', { onProgress: (p) => p.bytes >= 50_000 && dropping.drop() })), 'NETWORK');
    const kept = (await stat(partialPath)).size;
    assert.ok(kept >= 50_000 && kept < SIZE);
    const result = await downloadFile(options('/later'));
    assert.equal(result.resumedFrom, kept);
    assert.equal(server.requestsTo('/later')[1].headers.range, `bytes=${kept}-`);
    assert.deepEqual(await filesUnder(dir), ['model.bin.partial', 'model.bin.partial.json']);
    await emptyDir();
  });

  it('starts again from zero, cleanly, when the server ignores Range and answers 200', async () => {
    const dropping = dropMidFile(data.bytes, 60_000, 1, { ranges: false });
    server.route('/norange', dropping);
    await rejectsWith(downloadFile(options('/norange', { onProgress: (p) => p.bytes >= 60_000 && dropping.drop() })), 'NETWORK');
    assert.ok((await stat(partialPath)).size >= 60_000, 'a partial file waits to be resumed');
    const result = await downloadFile(options('/norange'));
    assert.equal(result.resumedFrom, 0);
    assert.equal(result.sha256, data.sha256);
    assert.ok((await readFile(partialPath)).equals(data.bytes), 'no stale bytes before the restarted download');
    await emptyDir();
  });

  it('rejects a checksum mismatch and leaves no partial file', async () => {
    server.route('/corrupt', serve(fixture(SIZE).bytes));
    const error = await rejectsWith(downloadFile(options('/corrupt')), 'CHECKSUM_MISMATCH');
    assert.match(error.message, new RegExp(data.sha256));
    assert.deepEqual(await filesUnder(dir), []);
  });

  it('rejects a file of the wrong size before downloading it', async () => {
    server.route('/short', serve(data.bytes.subarray(0, 1000)));
    await rejectsWith(downloadFile(options('/short')), 'SIZE_MISMATCH');
    assert.deepEqual(await filesUnder(dir), []);
  });

  it('reports 404 and 500 as HTTP errors without retrying them, leaving nothing behind', async () => {
    server.route('/missing', status(404));
    server.route('/broken', status(500));
    const missing = await rejectsWith(downloadFile(options('/missing', { retries: 3 })), 'HTTP_ERROR');
    assert.equal(missing.details.status, 404);
    assert.match(missing.message, /404 Not Found/);
    const broken = await rejectsWith(downloadFile(options('/broken', { retries: 3 })), 'HTTP_ERROR');
    assert.equal(broken.details.status, 500);
    assert.equal(server.requestsTo('/broken').length, 1);
    assert.deepEqual(await filesUnder(dir), []);
  });

  it('retries a gateway error (503) and then succeeds', async () => {
    server.route('/gateway', (req, res, attempt) => (attempt === 1 ? status(503)(req, res, attempt) : serve(data.bytes)(req, res, attempt)));
    const result = await downloadFile(options('/gateway', { retries: 1 }));
    assert.equal(result.sha256, data.sha256);
    assert.equal(server.requestsTo('/gateway').length, 2);
    await rm(partialPath, { force: true });
  });

  it('follows relative and absolute redirects', async () => {
    server.route('/moved', redirect('/hop'));
    server.route('/hop', redirect(`${server.base}/target`, 307));
    server.route('/target', serve(data.bytes));
    const result = await downloadFile(options('/moved'));
    assert.equal(result.sha256, data.sha256);
    await rm(partialPath, { force: true });
  });

  it('stops a redirect loop and an over-long redirect chain with a clear error', async () => {
    server.route('/loop-a', redirect('/loop-b'));
    server.route('/loop-b', redirect('/loop-a'));
    const loop = await rejectsWith(downloadFile(options('/loop-a')), 'REDIRECT_LOOP');
    assert.match(loop.message, /loop/);
    for (let hop = 0; hop < 7; hop++) server.route(`/chain-${hop}`, redirect(`/chain-${hop + 1}`));
    await rejectsWith(downloadFile(options('/chain-0')), 'TOO_MANY_REDIRECTS');
    assert.deepEqual(await filesUnder(dir), []);
  });

  it('cancels a slow download at once and deletes what it had written', async () => {
    server.route('/slow', stallAfter(data.bytes, 4096));
    const controller = new AbortController();
    const download = downloadFile(
      options('/slow', {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.bytes > 0) controller.abort();
        },
      }),
    );
    await rejectsWith(download, 'CANCELLED');
    assert.deepEqual(await filesUnder(dir), []);
  });

  it('gives up on a server that stops sending, keeping the bytes for a resume', async () => {
    server.route('/stalled', stallAfter(data.bytes, 4096));
    const error = await rejectsWith(downloadFile(options('/stalled', { stallTimeoutMs: 150 })), 'NETWORK');
    assert.match(error.message, /sent nothing/);
    assert.equal((await stat(partialPath)).size, 4096);
    await emptyDir();
  });

  it('records the hash when the catalog has none, with progress from Content-Length', async () => {
    server.route('/unknown', serve(data.bytes));
    const progress: FileProgress[] = [];
    const result = await downloadFile(options('/unknown', { expectedSize: null, expectedSha256: null, onProgress: (p) => progress.push(p) }));
    assert.equal(result.sha256, data.sha256);
    assert.equal(progress.find((p) => p.bytes === SIZE)?.totalBytes, SIZE);
    await rm(partialPath, { force: true });
  });

  it('sends plain HTTP through HTTP_PROXY and bypasses it for hosts in NO_PROXY', async () => {
    const proxy = await startTestProxy(server.port);
    try {
      server.route('/proxied', serve(data.bytes));
      const viaProxy = { HTTP_PROXY: proxy.url.replace('http://', 'http://user:secret@') };
      await downloadFile(options('/proxied', { url: 'http://models.internal.test/proxied', env: viaProxy }));
      assert.deepEqual(proxy.seen, ['http://models.internal.test/proxied']);
      assert.equal(proxy.authorizations[0], `Basic ${Buffer.from('user:secret').toString('base64')}`);
      await rm(partialPath, { force: true });

      await downloadFile(options('/proxied', { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } }));
      assert.equal(proxy.seen.length, 1, 'NO_PROXY host went direct');
      await rm(partialPath, { force: true });
    } finally {
      await proxy.close();
    }
  });

  it('tunnels HTTPS through HTTPS_PROXY with CONNECT', async (t) => {
    const certificate = await selfSignedCertificate();
    if (!certificate) return t.skip('openssl is not installed');
    const origin = https.createServer(certificate, (req, res) => serve(data.bytes)(req, res, 1));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const proxy = await startTestProxy((origin.address() as AddressInfo).port);
    try {
      const result = await downloadFile(
        options('/tls', { url: 'https://localhost:8443/tls', env: { HTTPS_PROXY: proxy.url }, ca: certificate.cert }),
      );
      assert.equal(result.sha256, data.sha256);
      assert.deepEqual(proxy.seen, ['localhost:8443']);
      await rm(partialPath, { force: true });
    } finally {
      await proxy.close();
      origin.closeAllConnections();
      await new Promise((resolve) => origin.close(resolve));
    }
  });

  it('resumes a partial file that a previous run finished but did not verify', async () => {
    server.route('/finished', serve(data.bytes));
    await writeFile(partialPath, data.bytes);
    await writeFile(`${partialPath}.json`, JSON.stringify({ url: `${server.base}/finished` }));
    const result = await downloadFile(options('/finished'));
    assert.equal(result.sha256, data.sha256);
    assert.equal(server.requestsTo('/finished').length, 0, 'nothing was downloaded again');
    await emptyDir();
  });
});
