/**
 * A full disk while the engine writes an output, and while an upload streams in: the data directory lives
 * on a small tmpfs that a filler file brings to the brink. Needs permission to mount (root, as in CI).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { open, readdir, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, isTerminal, postJson, request, startTestServer, tempDir, waitForJob, type TestServer } from '../helpers/server';
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
    // About a minute of speech: a few MB of WAV, far more than the 256 KB left.
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT.slice(0, 1000) })).json();
    const failed = await waitForJob(t.base, job.id, isTerminal, 60_000);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, /disk .* is full.*Free some space/);
    assert.doesNotMatch(failed.error, /\n\s+at /);
    assert.deepEqual(await readdir(path.join(mountpoint, 'jobs', job.id)).catch(() => []), [], 'nothing of the job is left');
    assert.ok((await freeBytes(mountpoint)) >= 200 * 1024, 'the partial output gave its space back');
    assert.equal((await request(`${t.base}/jobs/${job.id}/output`)).status, 409);

    await rm(filler);
    const next = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'There is room again.' })).json();
    assert.equal((await waitForJob(t.base, next.id, isTerminal)).status, 'succeeded');
  });

  it('answers an upload that does not fit with the disk-full error and keeps none of it', async (ctx) => {
    if (!t) return ctx.skip('cannot mount a tmpfs here (needs root)');
    const folders = async () => (await readdir(path.join(mountpoint, 'jobs'))).sort();
    const before = await folders();
    const filler = await fillUntil(mountpoint, 128 * 1024);
    try {
      // jfk.wav is 344 KB: it cannot fit in the 128 KB left.
      const res = await uploadMultipart(`${t.base}/stt/jobs`, { language: 'en', diarizationEnabled: 'false' }, { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' });
      assert.match(assertErrorBody(res, 500, 'INTERNAL_ERROR').error.message, /disk .* is full.*Free some space/);
      assert.equal(t.server.jobs.list().filter((j) => j.kind === 'stt').length, 0, 'no job was created');
      assert.deepEqual(await folders(), before, 'no upload folder was left behind');
    } finally {
      await rm(filler);
    }
    const res = await uploadMultipart(`${t.base}/stt/jobs`, { language: 'en', diarizationEnabled: 'false' }, { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' });
    assert.equal(res.status, 200, res.body.toString());
    assert.equal((await waitForJob(t.base, res.json().id, isTerminal, 60_000)).status, 'succeeded');
  });
});
