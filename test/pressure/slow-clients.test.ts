/**
 * Slowloris: clients that send their headers or their body a few bytes at a time to hold connections
 * open. The server must cut them (408 with the error body) within its configured limits, clean up what
 * they started, and leave clients that are merely slow alone.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { installSyntheticWhisper } from './support';

interface Exchange {
  answer: string;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
}

/** Sends `head` at once, then `drip` one piece at a time every `everyMs`, until the server closes. */
function trickle(
  port: number,
  head: string,
  drip: () => string,
  everyMs: number,
  giveUpMs = 20_000,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    // The drip starts once the head is written: a connecting socket already takes writes, and a piece sent
    // ahead of the head under load made the server see a request line starting with it (400, not 408).
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      timer = setInterval(() => socket.writable && socket.write(drip()), everyMs);
    });
    const chunks: Buffer[] = [];
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`The server still held the connection after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the answer is fine: the close below is what counts
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer: Buffer.concat(chunks).toString('utf8'), closedAfterMs: Date.now() - started });
    });
  });
}

const assert408 = (exchange: Exchange, withinMs: number): void => {
  assert.match(exchange.answer, /^HTTP\/1\.1 408 /, exchange.answer.slice(0, 200));
  assert.match(exchange.answer, /"code":"INVALID_REQUEST"/);
  assert.ok(exchange.closedAfterMs < withinMs, `closed after ${exchange.closedAfterMs} ms`);
};

describe('slow clients (slowloris)', () => {
  const t = useTestServer({ queueCapacity: 1, timeouts: { headersMs: 600, bodyWindowMs: 400, bodyMinBytes: 1024 } });
  const jobFolders = async (): Promise<string[]> => readdir(path.join(t.dataDir, 'jobs')).catch(() => []);
  before(async () => {
    await installSyntheticWhisper(t.dataDir);
  });

  it('cuts headers that arrive one line at a time, with 408 and the error body', async () => {
    let n = 0;
    const exchange = await trickle(
      t.server.port,
      'GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      () => `X-Slow-${n++}: a\r\n`,
      100,
    );
    assert408(exchange, 3000);
  });

  it('cuts a connection that never sends a byte', async () => {
    const exchange = await trickle(t.server.port, '', () => '', 1000);
    assert.ok(exchange.closedAfterMs < 3000, `closed after ${exchange.closedAfterMs} ms`);
  });

  it('cuts a JSON body that trickles in, with 408 and the error body', async () => {
    const head =
      'POST /v1/tts/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{';
    assert408(await trickle(t.server.port, head, () => ' ', 50), 3000);
  });

  it('cuts a chunked body that trickles in and never ends', async () => {
    const head =
      'POST /v1/tts/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    assert408(await trickle(t.server.port, head, () => '1\r\n \r\n', 50), 3000);
  });

  it('cuts a trickling upload, removes its partial file and frees its place in the queue', async () => {
    const boundary = 'slowloris';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF`;
    const head =
      `POST /v1/stt/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${10 * 1024 * 1024}\r\n\r\n${part}`;
    assert408(await trickle(t.server.port, head, () => 'x'.repeat(16), 50), 3000);
    await waitForEmpty(jobFolders);
    // The queue holds one job: the cut upload must have given its place back.
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
    );
    assert.equal(res.status, 200, res.body.toString());
    await fetch(`${t.base}/jobs/${res.json().id}/cancel`, { method: 'POST' });
  });

  it('lets a body that is slow but above the minimum rate through', async () => {
    const body = JSON.stringify({ voiceId: 'not-a-uuid', text: 'x'.repeat(30_000) });
    const pieces = body.match(/[\s\S]{1,2048}/g)!;
    const head = `POST /v1/tts/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`;
    const started = Date.now();
    const exchange = await trickle(t.server.port, head, () => pieces.shift() ?? '', 100);
    assert.ok(Date.now() - started > 1000, 'the body really took more than two windows');
    assert.match(exchange.answer, /^HTTP\/1\.1 422 /);
    assert.match(exchange.answer, /voiceId: must be a uuid/, 'the whole body was read and validated');
  });
});

async function waitForEmpty(read: () => Promise<string[]>): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await read()).length > 0) {
    if (Date.now() > deadline) throw new Error(`Left behind: ${(await read()).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
