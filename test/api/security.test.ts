import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import { chooseMediaToolchain, describeMediaToolchain } from '../../src/engine/media/media-toolchain';
import { writeApiKey } from '../../src/http/api-key';
import { localEntitlements } from '../../src/http/entitlements';
import { assertErrorBody, postJson, request, startTestServer, type TestServer, useTestServer } from '../helpers/server';

function rawExchange(port: number, payload: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(payload));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => reject(new Error('no answer from the server')));
  });
}

describe('Local API service endpoints and request hygiene', () => {
  const t = useTestServer();

  it('GET /health answers the constant health body', async () => {
    const res = await request(`${t.base}/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { status: 'ok', service: 'studio-local-api', apiVersion: 'v1' });
    assert.match(String(res.headers['content-type']), /^application\/json/);
  });

  it('GET /capabilities tells the truth about auth, features and installed models', async () => {
    const res = await request(`${t.base}/capabilities`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      apiVersion: 'v1',
      authEnabled: false,
      ttsEnabled: true,
      sttEnabled: true,
      models: { ttsInstalled: true, sttInstalled: false, sttModels: [] },
      ffmpeg: await describeMediaToolchain(chooseMediaToolchain(engineConfigFromEnvironment())),
    });
  });

  it('GET /capabilities names the ffmpeg in use: the system one on PATH, or the WebAssembly build', async () => {
    const { ffmpeg } = (await request(`${t.base}/capabilities`)).json() as {
      ffmpeg: { kind: string; description: string };
    };
    if (process.env.SPEECH_STUDIO_FFMPEG === 'wasm')
      assert.deepEqual(ffmpeg, { kind: 'webassembly', version: '5.1.4', description: 'webassembly 5.1.4' });
    else assert.match(ffmpeg.description, /^system \S*ffmpeg\S* \d+\.\d+/);
  });

  it('GET /openapi.json serves the OpenAPI 3.1 document, version 1.0.0, with every endpoint', async () => {
    const doc = (await request(`${t.base}/openapi.json`)).json();
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    for (const p of [
      '/health',
      '/capabilities',
      '/voices',
      '/tts/jobs',
      '/stt/jobs',
      '/jobs/{id}',
      '/jobs/{id}/cancel',
      '/jobs/{id}/output',
      '/jobs/{id}/transcript',
    ]) {
      assert.ok(doc.paths[p], `missing ${p}`);
    }
    assert.equal(doc.components.schemas.TtsRequest.additionalProperties, false);
  });

  it('answers an unknown path with 404 NOT_FOUND', async () => {
    assertErrorBody(await request(`${t.base}/nope`), 404, 'NOT_FOUND');
    assertErrorBody(await request(`http://127.0.0.1:${t.server.port}/v2/health`), 404, 'NOT_FOUND');
  });

  it('answers a known path with the wrong method with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const res = await request(`${t.base}/health`, { method: 'DELETE' });
    assertErrorBody(res, 405, 'METHOD_NOT_ALLOWED');
    assert.match(String(res.headers.allow), /GET/);
    assertErrorBody(await request(`${t.base}/tts/jobs`), 405, 'METHOD_NOT_ALLOWED');
  });

  it('rejects any request with an Origin header with 403 ORIGIN_NOT_ALLOWED and no CORS headers', async () => {
    const res = await request(`${t.base}/health`, { headers: { Origin: 'https://evil.example' } });
    assertErrorBody(res, 403, 'ORIGIN_NOT_ALLOWED');
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const preflight = await request(`${t.base}/tts/jobs`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'POST' },
    });
    assertErrorBody(preflight, 403, 'ORIGIN_NOT_ALLOWED');
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    assert.equal(preflight.headers['access-control-allow-methods'], undefined);
    const nullOrigin = await request(`${t.base}/health`, { headers: { Origin: 'null' } });
    assertErrorBody(nullOrigin, 403, 'ORIGIN_NOT_ALLOWED');
  });

  it('rejects a foreign Host while bound to loopback (DNS rebinding) with 403 HOST_NOT_ALLOWED', async () => {
    assertErrorBody(
      await request(`${t.base}/health`, { headers: { Host: `attacker.example:${t.server.port}` } }),
      403,
      'HOST_NOT_ALLOWED',
    );
    assertErrorBody(
      await request(`${t.base}/health`, { headers: { Host: 'localhost.attacker.example' } }),
      403,
      'HOST_NOT_ALLOWED',
    );
    for (const host of [
      `localhost:${t.server.port}`,
      `127.0.0.1:${t.server.port}`,
      `[::1]:${t.server.port}`,
      'LOCALHOST',
    ]) {
      assert.equal((await request(`${t.base}/health`, { headers: { Host: host } })).status, 200, host);
    }
  });

  it('answers broken JSON, a wrong content type and binary garbage with 422 INVALID_REQUEST', async () => {
    const url = `${t.base}/tts/jobs`;
    const broken = await request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"voiceId": ',
    });
    assertErrorBody(broken, 422, 'INVALID_REQUEST');
    const wrongType = await request(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hello' });
    assert.match(assertErrorBody(wrongType, 422, 'INVALID_REQUEST').error.message, /JSON/);
    const garbage = await request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x9c]),
    });
    assertErrorBody(garbage, 422, 'INVALID_REQUEST');
    const noType = await request(url, { method: 'POST', body: '{}' });
    assertErrorBody(noType, 422, 'INVALID_REQUEST');
    const array = await postJson(url, [1, 2]);
    assert.match(assertErrorBody(array, 422, 'INVALID_REQUEST').error.message, /JSON object/);
    const huge = await postJson(url, { voiceId: 'x', text: 'a'.repeat(3 * 1024 * 1024) });
    assertErrorBody(huge, 422, 'INVALID_REQUEST');
  });

  it('answers headers larger than 16 KB with 431 and a JSON error body, not a hang', async () => {
    const answer = await rawExchange(
      t.server.port,
      `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 431/);
    assert.match(answer, /"code":"HEADERS_TOO_LARGE"/);
  });

  it('answers bytes that are not HTTP with 400 and a JSON error body', async () => {
    const answer = await rawExchange(
      t.server.port,
      Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]),
    );
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.match(answer, /"code":"INVALID_REQUEST"/);
  });

  it('answers 503 LOCAL_API_DISABLED while the API is switched off, and serves again when on', async () => {
    t.server.setEnabled(false);
    try {
      assertErrorBody(await request(`${t.base}/health`), 503, 'LOCAL_API_DISABLED');
    } finally {
      t.server.setEnabled(true);
    }
    assert.equal((await request(`${t.base}/health`)).status, 200);
  });
});

describe('Local API with bearer authentication on', () => {
  const t = useTestServer({ auth: true });
  let key: string;
  before(async () => {
    key = (await readFile(path.join(t.dataDir, 'api-key'), 'utf8')).trim();
  });

  it('creates the key file on first start, owner-only, in the documented format', async () => {
    assert.match(key, /^ssk_local_[A-Za-z0-9]{32}$/);
    assert.equal((await stat(path.join(t.dataDir, 'api-key'))).mode & 0o777, 0o600);
  });

  it('answers a missing key with 401 AUTH_REQUIRED and a wrong one with 401 INVALID_API_KEY', async () => {
    assertErrorBody(await request(`${t.base}/health`), 401, 'AUTH_REQUIRED');
    for (const header of [
      `Bearer ${key}x`,
      `Bearer ${key.slice(0, -1)}`,
      'Bearer ',
      `Basic ${key}`,
      `Bearer  ${key}`,
      `Bearer ${'k'.repeat(8000)}`,
    ]) {
      assertErrorBody(
        await request(`${t.base}/health`, { headers: { Authorization: header } }),
        401,
        'INVALID_API_KEY',
      );
    }
  });

  it('accepts the right key on every endpoint and reports authEnabled', async () => {
    const res = await request(`${t.base}/capabilities`, { headers: { Authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200);
    assert.equal(res.json().authEnabled, true);
  });

  it('checks Origin before auth, so browsers learn nothing about the key', async () => {
    assertErrorBody(
      await request(`${t.base}/health`, { headers: { Origin: 'https://x.example' } }),
      403,
      'ORIGIN_NOT_ALLOWED',
    );
  });

  it('honours a regenerated key on the very next request; the old key fails at once', async () => {
    const fresh = await writeApiKey(t.dataDir);
    assertErrorBody(
      await request(`${t.base}/health`, { headers: { Authorization: `Bearer ${key}` } }),
      401,
      'INVALID_API_KEY',
    );
    assert.equal((await request(`${t.base}/health`, { headers: { Authorization: `Bearer ${fresh}` } })).status, 200);
    key = fresh;
  });

  it('treats an emptied key file as no valid key rather than accepting anything', async () => {
    await writeFile(path.join(t.dataDir, 'api-key'), '\n');
    assertErrorBody(
      await request(`${t.base}/health`, { headers: { Authorization: 'Bearer ' } }),
      401,
      'INVALID_API_KEY',
    );
    assertErrorBody(
      await request(`${t.base}/health`, { headers: { Authorization: `Bearer ${key}` } }),
      401,
      'INVALID_API_KEY',
    );
  });
});

describe('Local API entitlements', () => {
  let t: TestServer;
  after(() => t?.dispose());

  it('answers 402 ENTITLEMENT_REQUIRED naming the feature the account lacks', async () => {
    t = await startTestServer({ entitlements: localEntitlements(['tts', 'stt']) });
    const caps = (await request(`${t.base}/capabilities`)).json();
    assert.equal(caps.ttsEnabled, false);
    assert.equal(caps.sttEnabled, false);
    const tts = await postJson(`${t.base}/tts/jobs`, { voiceId: '00000000-0000-4000-8000-000000000000', text: 'hi' });
    assert.equal(assertErrorBody(tts, 402, 'ENTITLEMENT_REQUIRED').error.feature, 'tts');
    const stt = await request(`${t.base}/stt/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      body: '--x--',
    });
    assert.equal(assertErrorBody(stt, 402, 'ENTITLEMENT_REQUIRED').error.feature, 'stt');
    await t.dispose();
    t = await startTestServer({ entitlements: localEntitlements(['app_connection']) });
    assert.equal(
      assertErrorBody(await request(`${t.base}/health`), 402, 'ENTITLEMENT_REQUIRED').error.feature,
      'app_connection',
    );
  });
});
