/**
 * A full disk while the engine writes an output, and while an upload streams in: the data directory lives
 * on a small tmpfs that a filler file brings to the brink. Needs permission to mount (root, as in CI).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { open, readdir, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { reserveBytes } from '../../src/engine/audio/disk-guard';
import { WavWriter } from '../../src/engine/audio/wav-writer';
import { uploadMultipart } from '../helpers/multipart';
import {
  assertErrorBody,
  isTerminal,
  postJson,
  request,
  startTestServer,
  tempDir,
  waitFor,
  waitForJob,
  type TestServer,
} from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { installSyntheticWhisper } from './support';

/** Mounts a tmpfs of `megabytes` on `dir`; false where this process may not mount. */
function mountTmpfs(dir: string, megabytes: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const freeBytes = async (dir: string): Promise<number> => {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
};

/** Fills `dir` until only `leave` bytes are free; returns the filler's path. */
async function fillUntil(dir: string, leave: number): Promise<string> {
  const filler = path.join(dir, 'filler.bin');
  const handle = await open(filler, 'w');
  try {
    const chunk = Buffer.alloc(64 * 1024, 1);
    while ((await freeBytes(dir)) > leave + chunk.length) await handle.write(chunk);
  } finally {
    await handle.close();
  }
  return filler;
}

/**
 * Sends a whole multipart upload on a raw socket, pausing between chunks, and reads the answer only after
 * the last byte: the way simple upload clients behave. A write that fails (the server closed) rejects.
 */
async function uploadThenRead(base: string, fileBytes: number): Promise<{ status: number; body: string }> {
  const url = new URL(`${base}/stt/jobs`);
  const boundary = 'disk-full-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nen\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  let writeError: Error | undefined;
  socket.on('error', (error) => (writeError ??= error));
  const write = (chunk: Buffer): Promise<void> =>
    new Promise((resolve) =>
      socket.write(chunk, (error) => {
        if (error) writeError ??= error;
        resolve();
      }),
    );
  await write(
    Buffer.from(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + fileBytes + tail.length}\r\n\r\n`,
    ),
  );
  await write(head);
  const chunk = Buffer.alloc(256 * 1024, 7);
  for (let sent = 0; sent < fileBytes && !writeError; sent += chunk.length) {
    await write(chunk.subarray(0, Math.min(chunk.length, fileBytes - sent)));
    // Long enough for the server to meet the full disk and answer while this client still has more to send.
    if (sent === 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!writeError) await write(tail);
  if (writeError) {
    socket.destroy();
    throw new Error(`The server closed the connection before the client had sent its body: ${writeError.message}`);
  }
  await new Promise((resolve) => socket.once('close', resolve));
  const text = Buffer.concat(received).toString('utf8');
  const [, status = '0'] = /^HTTP\/1\.1 (\d{3})/.exec(text) ?? [];
  return { status: Number(status), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

describe('a full disk', () => {
  let mountpoint: string;
  let mounted = false;
  let t: TestServer | undefined;
  let voiceId: string;
  before(async () => {
    mountpoint = await tempDir('speech-studio-tmpfs-');
    mounted = mountTmpfs(mountpoint, 16);
    if (!mounted) return;
    t = await startTestServer({ dataDir: mountpoint });
    await installSyntheticWhisper(t.dataDir);
    voiceId = await englishVoiceId(t.base);
  });
  after(async () => {
    await t?.stop();
    if (mounted) execFileSync('umount', ['-l', mountpoint]);
    await rm(mountpoint, { recursive: true, force: true });
  });

  it('fails a TTS job clearly when its output does not fit, removes the partial file, and runs the next job once there is room', async (ctx) => {
    if (!t) return ctx.skip('cannot mount a tmpfs here (needs root)');
    const filler = await fillUntil(mountpoint, 256 * 1024);
    try {
      // About a minute of speech: a few MB of WAV, far more than the 256 KB left.
      const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT.slice(0, 1000) })).json();
      const failed = await waitForJob(t.base, job.id, isTerminal, 60_000);
      assert.equal(failed.status, 'failed');
      assert.match(failed.error, /disk .* is full.*Free some space/);
      assert.doesNotMatch(failed.error, /\n\s+at /);
      // The job service tidies the folder just after it records the failure; the job's own record (job.json,
      // what a damaged store is rebuilt from) stays while the job is listed.
      const folder = () =>
        readdir(path.join(mountpoint, 'jobs', job.id))
          .then((names) => names.filter((name) => name !== 'job.json'))
          .catch(() => [] as string[]);
      assert.deepEqual(
        await waitFor('the job folder to be tidied', folder, (names) => names.length === 0, 10_000),
        [],
        'nothing of the job is left but its record',
      );
      assert.ok((await freeBytes(mountpoint)) >= 200 * 1024, 'the partial output gave its space back');
      assert.equal((await request(`${t.base}/jobs/${job.id}/output`)).status, 409);
    } finally {
      await rm(filler);
    }
    const next = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'There is room again.' })).json();
    assert.equal((await waitForJob(t.base, next.id, isTerminal)).status, 'succeeded');
  });

  it('fails a narration whose output cannot fit before writing it, and keeps the reserve free all along', async (ctx) => {
    if (!t) return ctx.skip('cannot mount a tmpfs here (needs root)');
    // Ten minutes of 48 kHz stereo WAV is 115 MB: far more than this 16 MB disk, though the request is tiny.
    const text = '1\n00:00:01,000 --> 00:00:02,000\nHello.\n\n2\n00:10:00,000 --> 00:10:01,000\nStill here.\n';
    const job = (
      await postJson(`${t.base}/tts/jobs`, {
        voiceId,
        text,
        inputFormat: 'srt',
        sampleRate: 48000,
        audioChannels: 'stereo',
      })
    ).json();
    // Watch the free space while the job runs, to see its lowest point.
    let leastFree = Infinity;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        leastFree = Math.min(leastFree, await freeBytes(mountpoint));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const failed = await waitForJob(t.base, job.id, isTerminal, 60_000).finally(() => (watching = false));
    await watcher;
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, /disk .* is full.*The wav output needs about 11\d\.\d MB.*Free some space/);
    const stats = await statfs(mountpoint);
    assert.ok(leastFree >= reserveBytes(stats.blocks * stats.bsize), `${leastFree} bytes were left at the lowest`);
    assert.deepEqual(
      (await readdir(path.join(mountpoint, 'jobs', job.id)).catch(() => [] as string[])).filter(
        (name) => name !== 'job.json',
      ),
      [],
      'nothing of the job is left',
    );
  });

  it('stops a file that grows while the disk fills, leaving the reserve free', async (ctx) => {
    if (!t) return ctx.skip('cannot mount a tmpfs here (needs root)');
    const file = path.join(mountpoint, 'growing.wav');
    const writer = await WavWriter.create(file, { sampleRate: 48000, channels: 2 });
    const second = Int16Array.from({ length: 48000 }, (_, i) => Math.round(8000 * Math.sin(i / 10)));
    try {
      await assert.rejects(
        async () => {
          for (;;) await writer.write(second);
        },
        (error: NodeJS.ErrnoException) => {
          assert.equal(error.code, 'ENOSPC');
          assert.match(error.message, /MB are free and a job always leaves 0\.8 MB free/);
          return true;
        },
      );
      const stats = await statfs(mountpoint);
      assert.ok(stats.bavail * stats.bsize >= reserveBytes(stats.blocks * stats.bsize), 'the reserve is still free');
    } finally {
      await writer.abort();
      await rm(file, { force: true });
    }
  });

  it('answers an upload that does not fit with the disk-full error and keeps none of it', async (ctx) => {
    if (!t) return ctx.skip('cannot mount a tmpfs here (needs root)');
    const folders = async () => (await readdir(path.join(mountpoint, 'jobs'))).sort();
    const before = await folders();
    const filler = await fillUntil(mountpoint, 128 * 1024);
    try {
      // jfk.wav is 344 KB: it cannot fit in the 128 KB left.
      const res = await uploadMultipart(
        `${t.base}/stt/jobs`,
        { language: 'en', diarizationEnabled: 'false' },
        { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
      );
      assert.match(assertErrorBody(res, 500, 'INTERNAL_ERROR').error.message, /disk .* is full.*Free some space/);
      assert.equal(t.server.jobs.list().filter((j) => j.kind === 'stt').length, 0, 'no job was created');
      assert.deepEqual(await folders(), before, 'no upload folder was left behind');
    } finally {
      await rm(filler);
    }
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
    );
    assert.equal(res.status, 200, res.body.toString());
    assert.equal((await waitForJob(t.base, res.json().id, isTerminal, 60_000)).status, 'succeeded');
  });

  it('lets a client that sends its whole body before reading read the disk-full answer, never a closed socket', async (ctx) => {
    if (!t) return ctx.skip('cannot mount a tmpfs here (needs root)');
    const filler = await fillUntil(mountpoint, 128 * 1024);
    try {
      const answer = await uploadThenRead(t.base, 4 * 1024 * 1024);
      assert.equal(answer.status, 500, answer.body);
      assert.match(JSON.parse(answer.body).error.message, /disk .* is full.*Free some space/);
    } finally {
      await rm(filler);
    }
  });
});
