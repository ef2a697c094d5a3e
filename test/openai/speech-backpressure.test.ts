/**
 * OpenAI speech over SSE to a client that stops reading: the server holds the speech back instead of
 * buffering it, and drops the stalled client. Its own file: the WebAssembly-ffmpeg pass re-runs speech.test.ts,
 * and this check waits out an idle limit without touching ffmpeg's part.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, it } from 'node:test';
import { isTerminal, useTestServer, waitForJob } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

const SENTENCES = 'The quick brown fox jumps over the lazy dog. Speech Studio speaks every sentence as it comes. ';

/** A full garbage collection, which node:test's processes are not started to allow. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('POST /audio/speech with stream_format sse: a client that stops reading', () => {
  // The listener drops a connection that moves no bytes for this long; short, so the stalled client goes soon.
  const t = useTestServer({ timeouts: { idleMs: 15_000 } });

  it('holds the speech back instead of buffering it, and is dropped once stalled, its job cancelled if still running', async () => {
    const voice = await englishVoiceId(t.base);
    // About four and a half minutes of speech: 13 MB of PCM, 17 MB as base64 events.
    const body = JSON.stringify({
      model: 'tts-1',
      voice,
      input: SENTENCES.repeat(60),
      response_format: 'pcm',
      stream_format: 'sse',
    });
    const url = new URL(`${t.base}/audio/speech`);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.on('error', () => undefined);
    socket.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.pause(); // never reads: the kernel's buffers fill, then the server's writes wait

    // What the server holds, not garbage it has not collected yet: measured after a full collection.
    const retained = (): number => {
      collectGarbage();
      return process.memoryUsage().arrayBuffers;
    };
    const baseline = retained();
    let peak = 0;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let open = true;
    void closed.then(() => (open = false));
    const started = Date.now();
    // Measured while the client reads nothing; once it reads, what the kernel held arrives in this process.
    while (Date.now() - started < 25_000) {
      peak = Math.max(peak, retained() - baseline);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    socket.resume();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    assert.equal(open, false, 'the server dropped the stalled client');
    assert.ok(
      peak < 6 * 1024 * 1024,
      `the server buffered ${(peak / 1024 / 1024).toFixed(1)} MB for a client that did not read`,
    );
    const jobs = t.server.jobs.list().filter((job) => job.kind === 'tts');
    assert.equal(jobs.length, 1);
    const job = await waitForJob(t.base, jobs[0].id, isTerminal);
    assert.ok(job.status === 'cancelled' || job.status === 'succeeded', job.status);
  });
});
