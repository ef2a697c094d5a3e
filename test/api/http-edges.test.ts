/**
 * HTTP at its edges: what Node itself would answer before the app runs (CONNECT, odd Expect headers), the
 * charset of a JSON body, and requests a web page can make without an Origin header (Fetch Metadata).
 * Every refusal carries the spec's JSON error body.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawExchange, rawJson } from '../helpers/raw-http';
import { assertErrorBody, request, useTestServer } from '../helpers/server';

describe('Local API at the edges of HTTP', () => {
  const t = useTestServer();

  it('answers CONNECT with 405 METHOD_NOT_ALLOWED and the error body, not a dropped connection', async () => {
    const answer = await rawExchange(
      t.server.port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    assert.match(answer, /^HTTP\/1\.1 405 /);
    assert.match(answer, /\r\nAllow: GET, HEAD, POST, PUT, OPTIONS\r\n/);
    assert.equal(rawJson(answer).error.code, 'METHOD_NOT_ALLOWED');
  });

  it('ignores an upgrade it does not serve (curl --http2 offers h2c): the request is answered as HTTP/1.1', async () => {
    const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n';
    const answer = await rawExchange(t.server.port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}\r\n`);
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.equal(rawJson(answer).status, 'ok');
    const missing = await rawExchange(t.server.port, `GET /v1/no-such-route HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}\r\n`);
    assert.match(missing, /^HTTP\/1\.1 404 /);
    assert.equal(rawJson(missing).error.code, 'NOT_FOUND');
    assert.doesNotMatch(rawJson(missing).error.message, /WebSocket/);
    // curl offers h2c with a POST body too: the body reaches the app (here its schema check, about the voice).
    const body = '{"text":"hi"}';
    const posted = await rawExchange(
      t.server.port,
      `POST /v1/tts/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    assert.match(posted, /^HTTP\/1\.1 422 /);
    assert.match(rawJson(posted).error.message, /voiceId/);
  });

  it('refuses an HTTP/1.1 request without Host with 400, and an HTTP/2.0 request line with 505, each with the error body', async () => {
    const noHost = await rawExchange(t.server.port, 'GET /v1/health HTTP/1.1\r\n\r\n');
    assert.match(noHost, /^HTTP\/1\.1 400 /);
    assert.equal(rawJson(noHost).error.code, 'INVALID_REQUEST');
    const http2 = await rawExchange(t.server.port, 'GET /v1/health HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n');
    assert.match(http2, /^HTTP\/1\.1 (505|400) /);
    assert.equal(rawJson(http2).error.code, 'INVALID_REQUEST');
    // HTTP/1.0 has no Host requirement: a plain old client is still served.
    assert.match(await rawExchange(t.server.port, 'GET /v1/health HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 200 /);
  });

  it('answers an Expect other than 100-continue with 417 and the error body', async () => {
    const answer = await rawExchange(
      t.server.port,
      'GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 999-weird\r\n\r\n',
    );
    assert.match(answer, /^HTTP\/1\.1 417 /);
    const body = rawJson(answer);
    assert.equal(body.error.code, 'INVALID_REQUEST');
    assert.match(body.error.message, /999-weird/);
  });

  it('refuses a JSON body declared in another charset than UTF-8 with 422 naming the charset', async () => {
    const latin1 = Buffer.from('{"voiceId":"x","text":"caf\xe9"}', 'latin1');
    for (const charset of ['iso-8859-1', 'utf-16le', 'x-unknown']) {
      const res = await request(`${t.base}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': `application/json; charset=${charset}` },
        body: latin1,
      });
      assert.match(
        assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
        new RegExp(`^body: .*UTF-8.*${charset}`),
        charset,
      );
    }
  });

  it('reads JSON declared as UTF-8 (any spelling) or without a charset', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/json;charset="utf8"',
    ]) {
      const res = await request(`${t.base}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: '{"text":"hi"}',
      });
      // Past the body parser: the schema speaks, about the missing voice.
      assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /voiceId/, type);
    }
  });

  it('refuses requests a web page sends without an Origin: Sec-Fetch-Site cross-site or same-site', async () => {
    for (const site of ['cross-site', 'same-site', 'CROSS-SITE']) {
      const res = await request(`${t.base}/health`, {
        headers: { 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'audio' },
      });
      assertErrorBody(res, 403, 'ORIGIN_NOT_ALLOWED');
    }
  });

  it('refuses an empty Origin header like any other Origin', async () => {
    const answer = await rawExchange(t.server.port, 'GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: \r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 403 /);
    assert.equal(rawJson(answer).error.code, 'ORIGIN_NOT_ALLOWED');
  });

  it('keeps serving native clients (no Fetch Metadata) and what a person does in the address bar', async () => {
    assert.equal((await request(`${t.base}/health`)).status, 200);
    for (const site of ['none', 'same-origin']) {
      assert.equal((await request(`${t.base}/health`, { headers: { 'Sec-Fetch-Site': site } })).status, 200, site);
    }
  });
});
