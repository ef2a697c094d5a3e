/**
 * Hostile requests: names that try to leave the data directory, compression bombs in JSON bodies and in
 * media, broken Content-Encoding, requests without Host. Each is answered safely, and nothing is written
 * outside the data directory, which lives alone in a sandbox folder to prove it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import {
  assertErrorBody,
  isTerminal,
  rawPathRequest,
  request,
  startTestServer,
  tempDir,
  waitForJob,
  type TestServer,
} from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { installSyntheticWhisper, listTree, oneHertzWav, onLinux, rssOf } from './support';

const run = promisify(execFile);
const gzip = promisify(zlib.gzip);

describe('hostile input', () => {
  let sandbox: string;
  let t: TestServer;
  let media: string;
  let voiceId: string;
  before(async () => {
    sandbox = await tempDir('speech-studio-sandbox-');
    await mkdir(path.join(sandbox, 'data'));
    t = await startTestServer({ dataDir: path.join(sandbox, 'data'), queueCapacity: 100 });
    await installSyntheticWhisper(t.dataDir);
    voiceId = await englishVoiceId(t.base);
    media = await tempDir();
  });
  after(async () => {
    await t.stop();
    await rm(sandbox, { recursive: true, force: true });
    await rm(media, { recursive: true, force: true });
  });

  const upload = (
    fields: Record<string, string>,
    filename: string,
    source: string | Buffer = testModel('audio/jfk.wav'),
    fieldName?: string,
  ) =>
    uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false', ...fields },
      { source, filename, fieldName },
    );

  it('stores uploads under its own names whatever the client calls the file, and refuses a part named ../../x', async () => {
    const names = [
      '../../x',
      '/etc/passwd',
      '..\\..\\evil.wav',
      'C:\\Windows\\win.ini',
      '.',
      '..',
      `${'n'.repeat(4000)}.wav`,
      '%2e%2e%2fencoded.wav',
      'jobs.json',
      'évil 名前.mp3',
    ];
    // A long job in front keeps the uploads queued, so each folder is seen as it was received.
    const blocker = (
      await request(`${t.base}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voiceId, text: LONG_TEXT }),
      })
    ).json();
    for (const name of names) {
      const res = await upload({}, name);
      assert.equal(res.status, 200, `${name.slice(0, 40)}: ${res.body.toString()}`);
      const job = res.json();
      assert.doesNotMatch(job.name, /[/\\]/, 'the job name is a base name');
      assert.ok(job.name.length <= 200);
      const files = (await readdir(path.join(t.dataDir, 'jobs', job.id))).filter((name) => name !== 'job.json');
      assert.equal(files.length, 1);
      assert.match(files[0], /^input\.(wav|mp3|media)$/);
      await request(`${t.base}/jobs/${job.id}/cancel`, { method: 'POST' });
    }
    await request(`${t.base}/jobs/${blocker.id}/cancel`, { method: 'POST' });
    // A control character in a part header makes the part malformed.
    assertErrorBody(await upload({}, 'nul\u0000byte.wav'), 422, 'INVALID_REQUEST');
    for (const field of ['../../x', '/tmp/x', 'file\u0000']) {
      assertErrorBody(await upload({}, 'a.wav', Buffer.from('RIFF'), field), 422, 'INVALID_REQUEST');
    }
  });

  it('answers job ids that try to leave the jobs folder with 404 on every job endpoint', async () => {
    for (const id of ['..', '..%2F..%2Fapi-key', '%2E%2E', '..%5C..%5Cjobs.json', '%00', 'a%2Fb', '....//....//']) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['GET', '/output'],
        ['GET', '/transcript'],
        ['POST', '/cancel'],
      ]) {
        const res = await rawPathRequest(t.server.port, method, `/v1/jobs/${id}${suffix}`);
        assert.ok([404].includes(res.status), `${method} ${id}${suffix}: ${res.status}`);
        assert.equal(typeof res.json().error.code, 'string');
      }
    }
  });

  // 256 MB of spaces in 256 KB. Made without blocking: the server under test shares this event loop.
  const gzipBomb = () => gzip(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 });

  it('refuses a gzip bomb in a JSON body after 2 MB of inflated bytes, without the memory', async () => {
    const bomb = await gzipBomb();
    const before = process.memoryUsage().rss;
    const res = await request(`${t.base}/tts/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: bomb,
    });
    assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /too large/);
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, 'the bomb was not inflated into memory');
  });

  it('answers a request sent on a kept-alive connection while its event loop was stalled past the keep-alive timeout', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const bomb = await gzipBomb();
      const send = (method: string, path: string, body?: Buffer) =>
        new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
          const headers = body ? { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } : {};
          const req = http.request(`${t.base}${path}`, { method, agent, headers }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
          });
          req.on('error', reject);
          req.end(body);
        });
      assert.equal((await send('GET', '/health')).status, 200);
      // What a synchronous 256 MB gzip did under CPU load: the loop that runs the server and this client is
      // blocked past the server's keep-alive close (5 s + Node's 1 s grace), and the request goes out on the
      // kept-alive socket before either side's timer has run. The server used to close it then, in the same
      // turn, resetting the client mid-body.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6_500);
      const refused = await send('POST', '/tts/jobs', bomb);
      assert.deepEqual(refused, { status: 422, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('survives a compressed JSON body that turns invalid just past the 2 MB limit', async () => {
    // Stored (level 0) deflate blocks of incompressible bytes: 2 MB of body inflate from about 2 MB of gzip.
    // 0xff over more than one block (64 KB) breaks a block header, which the decoder meets near the limit.
    const incompressible = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0, x = 1; i < incompressible.length; i++) incompressible[i] = (x = (x * 48271) % 2147483647) & 0xff;
    const intact = await gzip(incompressible, { level: 0 });
    for (let from = 2 * 1024 * 1024 - 16 * 1024; from <= 2 * 1024 * 1024 + 64 * 1024; from += 4096) {
      const damaged = Buffer.from(intact).fill(0xff, from, from + 70_000);
      const res = await request(`${t.base}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: damaged,
      });
      assert.match(
        assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
        /too large|Content-Encoding/,
        `damage from byte ${from}`,
      );
    }
    assert.equal((await request(`${t.base}/health`)).status, 200);
  });

  it('answers a body that is not what its Content-Encoding says with 422, not 500', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await request(`${t.base}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding, Connection: 'close' },
        body: 'not compressed at all',
      });
      assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /Content-Encoding/, encoding);
    }
  });

  it('keeps a connection usable after refusing a body it read only in part', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // 300 KB of gzip that inflates past the 2 MB JSON limit: the parser stops reading part-way through.
      const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 1 });
      const big = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const headers = { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' };
        const req = http.request(`${t.base}/tts/jobs`, { method: 'POST', agent, headers }, resolve);
        req.on('error', reject);
        req.end(bomb);
      });
      assert.equal(big.statusCode, 422);
      big.resume();
      const next = await new Promise<number>((resolve, reject) => {
        const req = http.get(`${t.base}/health`, { agent }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.setTimeout(3000, () => reject(new Error('the next request hung behind the refused body')));
      });
      assert.equal(next, 200);
    } finally {
      agent.destroy();
    }
  });

  it('refuses an HTTP/1.1 request without Host (which HTTP/1.1 requires) with 400 and the error body, not a bare 400', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(t.server.port, '127.0.0.1', () => socket.end('GET /v1/nope HTTP/1.1\r\n\r\n'));
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /"code":"INVALID_REQUEST"/);
    assert.match(answer, /Host/);
  });

  describe('media that expands enormously when decoded', { skip: !onLinux && 'reads engine memory from /proc' }, () => {
    async function failsFastWithBoundedMemory(file: string, fields: Record<string, string> = {}): Promise<any> {
      const res = await upload(fields, path.basename(file), file);
      assert.equal(res.status, 200, res.body.toString());
      let peak = 0;
      const job = await waitForJob(
        t.base,
        res.json().id,
        (j) => {
          void Promise.all(t.server.engine.pids.map(rssOf)).then((sizes) => (peak = Math.max(peak, ...sizes)));
          return isTerminal(j);
        },
        30_000,
      );
      assert.ok(peak < 400 * 1024 * 1024, `engine RSS peaked at ${Math.round(peak / 1048576)} MB`);
      return job;
    }

    it('refuses 11 hours of 1 Hz silence (11 KB that decode to 1.3 GB) with a readable error', async () => {
      const job = await failsFastWithBoundedMemory(await oneHertzWav(path.join(media, 'one-hertz.wav'), 11 * 3600));
      assert.equal(job.status, 'failed');
      assert.match(job.error, /at most 4 hours of audio.*11 h 0 min.*cropStartSeconds and cropEndSeconds/);
    });

    it('refuses a 10-hour silent FLAC of a few KB the same way, and transcribes ten cropped seconds of it', async () => {
      const flac = path.join(media, 'ten-hours.flac');
      await run('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=1000:cl=mono',
        '-t',
        '36000',
        '-c:a',
        'flac',
        '-frame_size',
        '65535',
        flac,
      ]);
      const refused = await failsFastWithBoundedMemory(flac);
      assert.equal(refused.status, 'failed');
      assert.match(refused.error, /at most 4 hours of audio.*10 h 0 min/);
      const cropped = await failsFastWithBoundedMemory(flac, { cropStartSeconds: '7200', cropEndSeconds: '7210' });
      assert.equal(cropped.status, 'succeeded', cropped.error);
      assert.equal(cropped.result.durationSeconds, 36000);
    });
  });

  it('wrote nothing outside the data directory, and nothing unexpected inside it', async () => {
    assert.deepEqual(await readdir(sandbox), ['data']);
    const unexpected = (await listTree(t.dataDir)).filter(
      (p) =>
        !/^(jobs|models|models\/whisper|models\/whisper\/ggml-synthetic-random\.bin|jobs\.json(\.journal)?|jobs\/[0-9a-f-]{36}|jobs\/[0-9a-f-]{36}\/(input\.(wav|mp3|media|txt|flac)|output\.wav|transcript\.json|job\.json))$/.test(
          p,
        ),
    );
    assert.deepEqual(unexpected, []);
  });
});
