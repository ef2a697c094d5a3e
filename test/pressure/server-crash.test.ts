/**
 * The server process killed (SIGKILL) while a transcription runs and a burst of clients is creating
 * jobs, then restarted on the same data directory: every job a client was told about still exists, no
 * finished job or output changed, the running job is interrupted, the queued ones run, no engine is left.
 * (test/cli/headless.test.ts covers the quieter case of one running text-to-speech job.)
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { startCli, type RunningCli } from '../helpers/cli';
import { uploadMultipart } from '../helpers/multipart';
import { isTerminal, postJson, request, tempDir, waitFor, waitForJob } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId } from '../helpers/voices';
import { childrenOf, installSyntheticWhisper, isAlive, onLinux } from './support';

const run = promisify(execFile);
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('the server killed mid-job and restarted', { skip: !onLinux && 'reads engine processes from /proc' }, () => {
  const dirs: string[] = [];
  let cli: RunningCli | undefined;
  after(async () => {
    cli?.child.kill('SIGKILL');
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('keeps every acknowledged job and every output, interrupts the running job and runs the queued ones', async () => {
    const dir = await tempDir();
    const media = await tempDir();
    dirs.push(dir, media);
    await installSyntheticWhisper(dir);
    const long = path.join(media, 'long.wav');
    await run('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-stream_loop',
      '5',
      '-i',
      testModel('audio/alice-sample-16k.wav'),
      '-c:a',
      'pcm_s16le',
      long,
    ]);

    cli = await startCli(['--port', '0', '--data-dir', dir]);
    const base = cli.base;
    const voiceId = await englishVoiceId(base);
    const tts = (text: string) => postJson(`${base}/tts/jobs`, { voiceId, text });
    const stt = (file: string) =>
      uploadMultipart(
        `${base}/stt/jobs`,
        { language: 'en', diarizationEnabled: 'false' },
        { source: file, filename: path.basename(file) },
      );

    // Finished work, with the bytes of each output.
    const finished = await Promise.all(
      ['One.', 'Two.', 'Three.', 'Four.'].map(async (text) => (await tts(text)).json()),
    );
    const outputs = new Map<string, string>();
    for (const job of finished) {
      assert.equal((await waitForJob(base, job.id, isTerminal)).status, 'succeeded');
      outputs.set(job.id, sha((await request(`${base}/jobs/${job.id}/output`)).body));
    }
    const before = new Map<string, unknown>();
    for (const job of finished) before.set(job.id, (await request(`${base}/jobs/${job.id}`)).json());

    // A transcription running, then a burst of clients; the server dies once half of them were answered.
    const running = (await stt(long)).json();
    await waitForJob(base, running.id, (j) => j.phase === 'transcribing', 60_000);
    const engines = await childrenOf(cli.child.pid!);
    assert.ok(engines.length > 0);
    const acknowledged: string[] = [];
    let answered = 0;
    const server = cli;
    const burst = Array.from({ length: 12 }, (_, i) =>
      Promise.race([
        (i % 3 === 0 ? stt(testModel('audio/jfk.wav')) : tts(`Burst ${i}.`)).then(
          (res) => {
            if (res.status === 200) acknowledged.push(res.json().id);
            if (++answered === 6) server.child.kill('SIGKILL');
          },
          () => undefined,
        ),
        // Cut off by the kill (an upload may never hear back): the client was never told about a job.
        server.exited,
      ]),
    );
    await Promise.all(burst);
    if (answered < 6) server.child.kill('SIGKILL');
    await server.exited;
    assert.ok(acknowledged.length >= 6, `${acknowledged.length} jobs acknowledged before the kill`);
    for (const pid of engines)
      await waitFor(
        `engine ${pid} to exit with its server`,
        async () => isAlive(pid),
        (a) => !a,
        10_000,
      );

    cli = await startCli(['--port', '0', '--data-dir', dir]);
    const again = cli.base;
    for (const job of finished) {
      assert.deepEqual(
        (await request(`${again}/jobs/${job.id}`)).json(),
        before.get(job.id),
        'a finished job never changes',
      );
      assert.equal(
        sha((await request(`${again}/jobs/${job.id}/output`)).body),
        outputs.get(job.id),
        'its output is intact',
      );
    }
    const interrupted = (await request(`${again}/jobs/${running.id}`)).json();
    assert.equal(interrupted.status, 'interrupted');
    for (const id of acknowledged) {
      const job = await waitForJob(again, id, isTerminal, 120_000);
      assert.ok(job.status === 'succeeded' || job.status === 'interrupted', `${id} is ${job.status}: ${job.error}`);
    }
    assert.ok(
      (await Promise.all(acknowledged.map(async (id) => (await request(`${again}/jobs/${id}`)).json().status))).filter(
        (s) => s === 'succeeded',
      ).length >=
        acknowledged.length - 1,
      'at most the one job running at the kill is interrupted; every queued one ran',
    );
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited, 0);
    cli = undefined;
  });
});
