import assert from 'node:assert/strict';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readWavInfo } from '../../src/audio/wav-reader';
import { runCli, startCli } from '../helpers/cli';
import { assertErrorBody, isTerminal, postJson, request, tempDir, waitFor, waitForJob } from '../helpers/server';
import { childrenOf, isAlive } from '../helpers/processes';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return dir;
}
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('the headless server (node dist/cli.js serve)', () => {
  it('prints its listening line and honours the SPEECH_STUDIO_* environment variables', async () => {
    const dir = await dataDir();
    const cli = await startCli([], {
      SPEECH_STUDIO_PORT: '0',
      SPEECH_STUDIO_DATA_DIR: dir,
      SPEECH_STUDIO_AUTH: 'on',
      SPEECH_STUDIO_HOST: '127.0.0.1',
    });
    try {
      assert.match(cli.base, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      assertErrorBody(await request(`${cli.base}/health`), 401, 'AUTH_REQUIRED');
      const key = (await readFile(path.join(dir, 'api-key'), 'utf8')).trim();
      assert.equal((await request(`${cli.base}/health`, { headers: { Authorization: `Bearer ${key}` } })).status, 200);

      const regenerated = await runCli(['key', 'regenerate', '--data-dir', dir]);
      assert.equal(regenerated.code, 0, regenerated.stderr);
      assertErrorBody(
        await request(`${cli.base}/health`, { headers: { Authorization: `Bearer ${key}` } }),
        401,
        'INVALID_API_KEY',
      );
      const fresh = (await runCli(['key', 'show', '--data-dir', dir])).stdout.trim();
      assert.notEqual(fresh, key);
      assert.equal(
        (await request(`${cli.base}/health`, { headers: { Authorization: `Bearer ${fresh}` } })).status,
        200,
      );
    } finally {
      cli.child.kill('SIGTERM');
      assert.equal(await cli.exited, 0);
    }
  });

  it('warns when bound to all interfaces with authentication off', async () => {
    const cli = await startCli(['--host', '0.0.0.0', '--port', '0', '--data-dir', await dataDir()]);
    cli.child.kill('SIGTERM');
    await cli.exited;
    assert.match(cli.output(), /all interfaces.*authentication off/);
  });

  it('exits with code 2 and the usage on bad arguments', async () => {
    for (const args of [['serve', '--port', 'abc'], ['serve', '--auth', 'maybe'], ['serve', '--bogus'], ['fly']]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /Usage:/);
    }
  });

  it('on SIGTERM marks the running job interrupted and keeps queued ones for the next start', async () => {
    const dir = await dataDir();
    let cli = await startCli(['--port', '0', '--data-dir', dir]);
    const voiceId = await englishVoiceId(cli.base);
    const finished = (await postJson(`${cli.base}/tts/jobs`, { voiceId, text: 'Finished before the stop.' })).json();
    await waitForJob(cli.base, finished.id, isTerminal);
    const running = (await postJson(`${cli.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    const queued = (await postJson(`${cli.base}/tts/jobs`, { voiceId, text: 'Queued across a restart.' })).json();
    await waitForJob(cli.base, running.id, (j) => j.status === 'processing');
    const engines = await childrenOf(cli.child.pid!);
    assert.ok(engines.length > 0);

    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited, 0);
    for (const pid of engines)
      await waitFor(
        `engine ${pid} to end`,
        async () => isAlive(pid),
        (a) => !a,
        5000,
      );

    cli = await startCli(['--port', '0', '--data-dir', dir]);
    try {
      const interrupted = (await request(`${cli.base}/jobs/${running.id}`)).json();
      assert.equal(interrupted.status, 'interrupted');
      assert.match(interrupted.error, /interrupted/);
      assert.equal((await waitForJob(cli.base, queued.id, isTerminal)).status, 'succeeded');
      const output = await request(`${cli.base}/jobs/${finished.id}/output`);
      assert.equal(output.status, 200);
      assert.ok(readWavInfo(output.body).frames > 0);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('after a hard kill (SIGKILL) the running job is interrupted, queued jobs run and no engine is orphaned', async () => {
    const dir = await dataDir();
    let cli = await startCli(['--port', '0', '--data-dir', dir]);
    const voiceId = await englishVoiceId(cli.base);
    const finished = (await postJson(`${cli.base}/tts/jobs`, { voiceId, text: 'Safe on disk.' })).json();
    await waitForJob(cli.base, finished.id, isTerminal);
    const running = (await postJson(`${cli.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    const queued = (await postJson(`${cli.base}/tts/jobs`, { voiceId, text: 'Still queued.' })).json();
    await waitForJob(cli.base, running.id, (j) => j.status === 'processing');
    const engines = await childrenOf(cli.child.pid!);

    cli.child.kill('SIGKILL');
    await cli.exited;
    // The engine notices the lost parent between synthesis chunks; on a loaded machine a chunk can take seconds.
    for (const pid of engines)
      await waitFor(
        `orphan engine ${pid} to exit`,
        async () => isAlive(pid),
        (a) => !a,
        30_000,
      );

    cli = await startCli(['--port', '0', '--data-dir', dir]);
    try {
      assert.equal((await request(`${cli.base}/jobs/${running.id}`)).json().status, 'interrupted');
      assert.equal((await waitForJob(cli.base, queued.id, isTerminal)).status, 'succeeded');
      assert.equal((await request(`${cli.base}/jobs/${finished.id}/output`)).status, 200);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('starts with a damaged job store, keeps a copy of it and says so', async () => {
    const dir = await dataDir();
    await writeFile(path.join(dir, 'jobs.json'), '{"version":1,"jobs":[{"id":');
    const cli = await startCli(['--port', '0', '--data-dir', dir]);
    try {
      assert.equal((await request(`${cli.base}/health`)).status, 200);
      assert.match(cli.output(), /could not be read.*kept it as/);
      assert.ok((await readdir(dir)).some((name) => name.startsWith('jobs.json.damaged-')));
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});
