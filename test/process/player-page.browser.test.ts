/**
 * The player webview's script (media/player/player.js) in a real browser (Debian's Chromium driven by
 * playwright-core): audio whose first requests fail, as they do when a fresh window's webview service worker is
 * not serving yet, still loads, and audio that never loads is reported as an error after the last try. Only
 * `acquireVsCodeApi` is stood in for: it collects what the page posts to the extension.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { wavHeader } from '../helpers/wav';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM}: apt-get install chromium`;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--no-pings',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

const PLAYER_SCRIPT = readFileSync(path.resolve('media/player/player.js'));
const SECONDS = 1.5;

/** SECONDS of a 440 Hz tone, 16 kHz mono. */
function toneWav(): Buffer {
  const samples = Buffer.alloc(SECONDS * 16000 * 2);
  for (let i = 0; i < samples.length / 2; i++)
    samples.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), i * 2);
  return Buffer.concat([wavHeader(samples.length), samples]);
}

const page = (name: string): string => `<!DOCTYPE html><html><head><meta charset="UTF-8">
<script>window.posted = []; window.acquireVsCodeApi = () => ({ postMessage: (message) => window.posted.push(message) });</script>
</head><body data-view="player"><h2>Tone</h2><audio controls src="/audio/${name}.wav"></audio><script src="/player.js?for=${name}"></script></body></html>`;

interface Posted {
  type: string;
  state?: string;
  attempt?: number;
  error?: string;
}

describe('the player page in Chromium', { skip: missing }, () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  /** Requests for each audio path, and how many of them fail before it is served. */
  const requests = new Map<string, number>();
  const failures = new Map<string, number>();
  const scriptAfterAudio = new Set<string>();
  const waitForRequest = async (audioPath: string): Promise<void> => {
    while (!requests.get(audioPath)) await delay(20);
  };
  const wav = toneWav();

  before(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/player.js') {
        const name = url.searchParams.get('for') ?? '';
        // A page whose script comes late: served once the audio's first request has failed.
        void (
          scriptAfterAudio.has(name) ? waitForRequest(`/audio/${name}.wav`).then(() => delay(500)) : Promise.resolve()
        ).then(() => response.writeHead(200, { 'content-type': 'text/javascript' }).end(PLAYER_SCRIPT));
      } else if (url.pathname.startsWith('/page/'))
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(url.pathname.slice(6)));
      else if (url.pathname.startsWith('/audio/')) {
        const seen = (requests.get(url.pathname) ?? 0) + 1;
        requests.set(url.pathname, seen);
        if (seen <= (failures.get(url.pathname) ?? 0)) response.writeHead(503).end();
        else response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length }).end(wav);
      } else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function open(
    name: string,
    failing: number,
    options: { scriptAfterAudio?: boolean } = {},
  ): Promise<{ duration: () => Promise<number>; posted: () => Promise<Posted[]>; close: () => Promise<void> }> {
    failures.set(`/audio/${name}.wav`, failing);
    if (options.scriptAfterAudio) scriptAfterAudio.add(name);
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${origin}/page/${name}`);
    return {
      duration: () => tab.evaluate<number>("document.querySelector('audio').duration"),
      posted: () => tab.evaluate<Posted[]>('window.posted'),
      close: () => context.close(),
    };
  }

  it('loads audio whose first two requests failed, saying it tries again, without an error report', async () => {
    const player = await open('late', 2);
    try {
      await waitUntil(async () => (await player.duration()) > 0, 'the audio to load');
      assert.ok(
        Math.abs((await player.duration()) - SECONDS) < 0.05,
        `the tone's length (${await player.duration()} s)`,
      );
      const posted = await player.posted();
      assert.ok(
        posted.some((message) => message.type === 'ready'),
        'the page said it is ready',
      );
      assert.deepEqual(
        posted.filter((message) => message.type === 'retry').map((message) => message.attempt),
        [1, 2],
      );
      assert.equal(posted.filter((message) => message.state === 'error').length, 0, JSON.stringify(posted));
    } finally {
      await player.close();
    }
  });

  it("loads audio whose first request failed before the page's script ran", async () => {
    const player = await open('early', 1, { scriptAfterAudio: true });
    try {
      await waitUntil(async () => (await player.duration()) > 0, 'the audio to load');
      const posted = await player.posted();
      assert.deepEqual(
        posted.filter((message) => message.type === 'retry').map((message) => message.attempt),
        [1],
      );
      assert.equal(requests.get('/audio/early.wav'), 2, 'the failed request and one more');
      assert.equal(posted.filter((message) => message.state === 'error').length, 0, JSON.stringify(posted));
    } finally {
      await player.close();
    }
  });

  it('reports an error once audio that never loads has been tried four times', async () => {
    const player = await open('missing', Number.POSITIVE_INFINITY);
    try {
      await waitUntil(
        async () => (await player.posted()).some((message) => message.state === 'error'),
        'the error report',
      );
      const posted = await player.posted();
      assert.deepEqual(
        posted.filter((message) => message.type === 'retry').map((message) => message.attempt),
        [1, 2, 3],
      );
      assert.equal(posted.filter((message) => message.state === 'error').length, 1);
      assert.equal(requests.get('/audio/missing.wav'), 4, 'one request and three tries again');
      assert.ok(Number.isNaN(await player.duration()));
    } finally {
      await player.close();
    }
  });
});

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
