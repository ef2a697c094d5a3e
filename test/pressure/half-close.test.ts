/**
 * Raw-socket exchanges an outside probe left unexplained: a client that closes its sending half after a
 * complete request, pipelined requests, and `Expect: 100-continue` with a body shorter than promised. Each
 * gets a final answer with the error body (or every answer, in order), never silence.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { startTestServer, useTestServer } from '../helpers/server';

interface Exchange {
  statuses: number[];
  text: string;
}

/** Writes `payload`, optionally half-closes, and reads until the server closes (or fails after 10 s). */
function exchange(port: number, payload: string, halfClose: boolean): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(payload);
      if (halfClose) socket.end();
    });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no end of answer within 10 s; got ${JSON.stringify(Buffer.concat(chunks).toString().slice(0, 300))}`,
        ),
      );
    }, 10_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ text, statuses: [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])) });
    });
    socket.on('error', reject);
  });
}

const head = (method: string, path: string, extra = ''): string =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}`;

describe('half-closed and pipelined connections', () => {
  const t = useTestServer();

  it('answers a PUT /lexicon whose gzip body is not gzip with 422 even when the client half-closes after sending it', async () => {
    const body = 'this is not gzip';
    for (const halfClose of [true, false]) {
      const answer = await exchange(
        t.server.port,
        `${head('PUT', '/v1/lexicon', `Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`)}${body}`,
        halfClose,
      );
      assert.deepEqual(answer.statuses, [422], answer.text);
      assert.match(answer.text, /"code":"INVALID_REQUEST".*Content-Encoding/);
    }
  });

  it('answers three pipelined requests on one connection, all three in order, whether or not the client half-closes', async () => {
    for (const halfClose of [true, false]) {
      const payload = `${head('GET', '/v1/models', '\r\n')}${head('GET', '/v1/no-such-route', '\r\n')}${head('GET', '/v1/health', 'Connection: close\r\n\r\n')}`;
      const answer = await exchange(t.server.port, payload, halfClose);
      assert.deepEqual(answer.statuses, [200, 404, 200], `halfClose ${halfClose}: ${answer.text.slice(0, 300)}`);
    }
  });

  it('answers a half-closed request whose route works asynchronously (it used to get an empty reply)', async () => {
    const answer = await exchange(t.server.port, head('GET', '/v1/models', 'Connection: close\r\n\r\n'), true);
    assert.deepEqual(answer.statuses, [200]);
  });

  it('gives Expect: 100-continue with a body shorter than its Content-Length a final 400 when the client half-closes', async () => {
    const answer = await exchange(
      t.server.port,
      `${head('PUT', '/v1/lexicon', 'Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n')}{"a":1}`,
      true,
    );
    assert.deepEqual(answer.statuses, [100, 400], answer.text);
    assert.match(answer.text, /"code":"INVALID_REQUEST".*Content-Length/);
  });
});

describe('a body that never completes', () => {
  it('gives Expect: 100-continue with a short body a final 408 once the body window passes, if the client keeps the connection open', async () => {
    const t = await startTestServer({ timeouts: { bodyWindowMs: 300 } });
    try {
      const answer = await exchange(
        t.server.port,
        `${head('PUT', '/v1/lexicon', 'Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n')}{"a":1}`,
        false,
      );
      assert.deepEqual(answer.statuses, [100, 408], answer.text);
      assert.match(answer.text, /"code":"INVALID_REQUEST"/);
    } finally {
      await t.dispose();
    }
  });
});
