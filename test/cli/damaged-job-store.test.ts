/**
 * The headless server restarted on a damaged `jobs.json` (cut in half, its last brace gone, a byte-order mark
 * an editor added, `null`): every job is rebuilt from the journal and the records the job folders keep, its
 * output is served, and the damaged file is kept aside in every case. A job folder with no record anywhere
 * cannot be rebuilt: the server refuses to start and says what to do, instead of starting without jobs.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { startCli } from '../helpers/cli';
import { isTerminal, postJson, request, tempDir, waitForJob } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const JOBS = 6;

/** A data directory whose server ran `JOBS` TTS jobs to success and stopped (its snapshot written): their ids. */
async function ranJobs(): Promise<{ dir: string; ids: string[] }> {
  const dir = await tempDir();
  dirs.push(dir);
  const cli = await startCli(['--port', '0', '--data-dir', dir]);
  const ids: string[] = [];
  try {
    const voiceId = await englishVoiceId(cli.base);
    for (let i = 0; i < JOBS; i++) {
      const created = await postJson(`${cli.base}/tts/jobs`, { voiceId, text: `Job number ${i + 1}.` });
      assert.ok([200, 201, 202].includes(created.status), created.body.toString());
      ids.push(created.json().id as string);
    }
    for (const id of ids) assert.equal((await waitForJob(cli.base, id, isTerminal)).status, 'succeeded');
  } finally {
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited, 0, cli.output());
  }
  return { dir, ids };
}

const DAMAGES: Array<[string, (snapshot: string) => string]> = [
  ['cut in half', (snapshot) => snapshot.slice(0, Math.floor(snapshot.length / 2))],
  ['its last brace missing', (snapshot) => snapshot.trimEnd().slice(0, -1)],
  ['a byte-order mark added', (snapshot) => `\uFEFF${snapshot}`],
  ['null', () => 'null'],
];

describe('the server restarted on a damaged job store', () => {
  for (const [what, damage] of DAMAGES) {
    it(`jobs.json ${what}: every job and its output is back, and the file read is kept as it was`, async () => {
      const { dir, ids } = await ranJobs();
      const file = path.join(dir, 'jobs.json');
      const damaged = damage(await readFile(file, 'utf8'));
      await writeFile(file, damaged);
      const cli = await startCli(['--port', '0', '--data-dir', dir]);
      try {
        for (const id of ids) {
          const job = await request(`${cli.base}/jobs/${id}`);
          assert.equal(job.status, 200, `${what}: job ${id}`);
          assert.equal(job.json().status, 'succeeded');
          assert.equal((await request(`${cli.base}/jobs/${id}/output`)).status, 200, `${what}: output of ${id}`);
        }
      } finally {
        cli.child.kill('SIGTERM');
        await cli.exited;
      }
      if (what !== 'a byte-order mark added') {
        assert.match(cli.output(), /could not be read.*kept it as .*rebuilt 6 jobs/);
        const kept = (await readdir(dir)).filter((name) => name.startsWith('jobs.json.damaged-'));
        assert.equal(kept.length, 1, `${what}: one copy kept aside`);
        assert.equal(await readFile(path.join(dir, kept[0]), 'utf8'), damaged);
      }
    });
  }

  it('refuses to start, naming the folders, when a job folder holds no record to rebuild its job from', async () => {
    const { dir } = await ranJobs();
    await mkdir(path.join(dir, 'jobs', 'folder-without-record'));
    await writeFile(path.join(dir, 'jobs.json'), 'null');
    await assert.rejects(startCli(['--port', '0', '--data-dir', dir]), /folder-without-record.*Restore jobs\.json/s);
    assert.equal(await readFile(path.join(dir, 'jobs.json'), 'utf8'), 'null', 'the damaged store is left in place');
  });
});
