/**
 * The JSON and form body readers (src/http/request-body.ts) behind a real Koa app on a loopback port, with
 * the Local API's error middleware: what they parse, what they refuse, and that a compressed body damaged
 * near the limit is refused instead of ending the process.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Koa from 'koa';
import { formBody, jsonBody } from '../../src/http/request-body';
import { errorMiddleware } from '../../src/http/error-middleware';
import { silentLogger } from '../../src/util/log';
import { assertErrorBody, request } from '../helpers/server';

const gzip = promisify(zlib.gzip);
const JSON_LIMIT = 64 * 1024;
const FORM_LIMIT = 16 * 1024;

/** Bytes that do not compress, the same on every run, so stored blocks keep compressed and decoded offsets alike. */
function incompressible(bytes: number, alphabet?: string): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0, x = 1; i < bytes; i++) {
    x = (x * 48271) % 2147483647;
    out[i] = alphabet ? alphabet.charCodeAt(x % alphabet.length) : x & 0xff;
  }
  return out;
}

describe('request bodies (jsonBody, formBody)', () => {
  let server: http.Server;
  let base: string;
  before(async () => {
    const app = new Koa();
    app.use(errorMiddleware(silentLogger));
    app.use(async (ctx, next) => {
      if (ctx.path === '/json') await jsonBody(JSON_LIMIT)(ctx, next);
      else if (ctx.path === '/form') await formBody(FORM_LIMIT)(ctx, next);
      else await next();
    });
    app.use((ctx) => {
      ctx.body = { parsed: ctx.request.body ?? null };
    });
    const handle = app.callback();
    // Koa's callback answers its own errors: its promise never rejects.
    server = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const postJson = (body: string | Buffer, headers: Record<string, string> = {}) =>
    request(`${base}/json`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

  it('parses a JSON object or array, plain or with gzip, deflate or br, a byte-order mark dropped', async () => {
    const text = JSON.stringify({ text: 'héllo', n: [1, 2] });
    assert.deepEqual((await postJson(text)).json(), { parsed: { text: 'héllo', n: [1, 2] } });
    assert.deepEqual((await postJson(`\ufeff${text}`)).json().parsed.text, 'héllo');
    assert.deepEqual((await postJson('[1]')).json(), { parsed: [1] });
    for (const [encoding, encode] of [
      ['gzip', zlib.gzipSync],
      ['deflate', zlib.deflateSync],
      ['br', zlib.brotliCompressSync],
    ] as const) {
      const res = await postJson(encode(Buffer.from(text)), { 'Content-Encoding': encoding });
      assert.deepEqual(res.json(), { parsed: { text: 'héllo', n: [1, 2] } }, encoding);
    }
  });

  it('refuses what is not a JSON object or array, broken JSON and a __proto__ key with 422 naming the body', async () => {
    assert.match(
      assertErrorBody(await postJson('"just a string"'), 422, 'INVALID_REQUEST').error.message,
      /^body: must be a JSON object/,
    );
    assert.match(
      assertErrorBody(await postJson('{"text": '), 422, 'INVALID_REQUEST').error.message,
      /^body: is not valid JSON/,
    );
    assert.match(
      assertErrorBody(await postJson('{"a": {"__proto__": {"x": 1}}}'), 422, 'INVALID_REQUEST').error.message,
      /__proto__/,
    );
    assert.match(
      assertErrorBody(await postJson('{}', { 'Content-Encoding': 'compress' }), 422, 'INVALID_REQUEST').error.message,
      /Content-Encoding "compress" is not supported/,
    );
    assert.match(
      assertErrorBody(await postJson('not gzip', { 'Content-Encoding': 'gzip' }), 422, 'INVALID_REQUEST').error.message,
      /not valid data for its Content-Encoding/,
    );
  });

  it('refuses a body past the limit, declared or once decoded, and keeps the connection usable', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const send = (path: string, body?: Buffer, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = http.request(`${base}${path}`, { method: body ? 'POST' : 'GET', agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
          });
          req.on('error', reject);
          req.end(body);
        });
      const declared = await send('/json', Buffer.from(`{"text":"${'a'.repeat(JSON_LIMIT)}"}`), {
        'Content-Type': 'application/json',
      });
      assert.equal(declared.status, 422);
      assert.match(declared.text, /body: is too large \(more than 65536 bytes once decoded\)/);
      const inflated = await send('/json', zlib.gzipSync(Buffer.from(`{"text":"${' '.repeat(4 * 1024 * 1024)}"}`)), {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      });
      assert.equal(inflated.status, 422);
      assert.match(inflated.text, /too large/);
      assert.deepEqual(await send('/other'), { status: 200, text: '{"parsed":null}' });
    } finally {
      agent.destroy();
    }
  });

  it('parses a urlencoded form, repeated names into arrays, and leaves other bodies alone', async () => {
    const form = (body: string, type = 'application/x-www-form-urlencoded') =>
      request(`${base}/form`, { method: 'POST', headers: { 'Content-Type': type }, body });
    assert.deepEqual((await form('name=ci+key&scopes=tts.create&scopes=jobs.read&x=%C3%A9')).json(), {
      parsed: { name: 'ci key', scopes: ['tts.create', 'jobs.read'], x: 'é' },
    });
    assert.deepEqual((await form('{"a":1}', 'application/json')).json(), { parsed: {} });
  });

  it('refuses compressed JSON and form bodies damaged just past their limit, and the process lives on', async () => {
    // koa-body stopped reading its decoder at the limit but left it decoding what it held: the damage then
    // failed the decoder with no listener, an uncaught error. Stored blocks (level 0) keep offsets aligned;
    // 0xff over more than one block (64 KB) breaks a block header, met wherever the decoder stopped.
    const cases = [
      {
        path: '/json',
        type: 'application/json',
        limit: JSON_LIMIT,
        intact: await gzip(incompressible(4 * JSON_LIMIT), { level: 0 }),
      },
      {
        path: '/form',
        type: 'application/x-www-form-urlencoded',
        limit: FORM_LIMIT,
        intact: await gzip(incompressible(16 * FORM_LIMIT, 'abcdefghij'), { level: 0 }),
      },
    ];
    for (const { path, type, limit, intact } of cases) {
      for (let from = limit - 8 * 1024; from <= limit + 64 * 1024; from += 2048) {
        const damaged = Buffer.from(intact).fill(0xff, from, Math.min(from + 70_000, intact.length));
        const res = await request(`${base}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': type, 'Content-Encoding': 'gzip' },
          body: damaged,
        });
        assert.match(
          assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
          /too large|Content-Encoding/,
          `${path}, damage from byte ${from}`,
        );
      }
    }
    assert.equal((await request(`${base}/other`)).status, 200);
  });
});
