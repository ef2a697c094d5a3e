/**
 * Outside probe of durability: the server killed (SIGKILL) in the middle of an upload, of racing lexicon
 * writes and of a running job, then restarted; and files in its data directory torn or swapped while it was
 * down (a finished job's output emptied or gone, its folder replaced, the journal a link out of the folder).
 * After each restart every request answers without a 5xx, no temporary file is left, and nothing outside
 * the data directory changed.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startCli, type RunningCli } from '../helpers/cli';
import { isTerminal, postJson, request, startTestServer, waitForJob, type RawResponse } from '../helpers/server';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { wavHeader } from '../helpers/wav';
import { baitPaths, probeEnds, useProbeSandbox } from './probe-kit';
import { installSyntheticWhisper, onLinux } from './support';

describe('outside probe: durability', { skip: !onLinux && 'kills the server with SIGKILL' }, () => {
  let cli: RunningCli | undefined;
  const probe = useProbeSandbox('durability', {
    prepare: (box) => installSyntheticWhisper(box.data).then(() => undefined),
    cleanUp: () => cli?.child.kill('SIGKILL'),
  });
  const { tally } = probe;

  const ask = (what: string, send: () => Promise<RawResponse>): Promise<RawResponse> =>
    tally.probe(what, send, (r) => r.status);
  const killServer = async (): Promise<void> => {
    cli!.child.kill('SIGKILL');
    await cli!.exited;
  };
  const temporaries = async (): Promise<string[]> =>
    (await readdir(probe.box.data, { recursive: true }))
      .filter((name) => /\.tmp$|\.tmp-/.test(String(name)))
      .map(String);

  it('restarts cleanly after SIGKILL during an upload, racing lexicon writes and a running job', async () => {
    cli = await startCli(['--port', '0', '--data-dir', probe.box.data], {}, 120_000);
    const voiceId = await englishVoiceId(cli.base);
    const running = (
      await ask('tts before the kill', () => postJson(`${cli!.base}/tts/jobs`, { voiceId, text: LONG_TEXT }))
    ).json();
    await waitForJob(cli.base, running.id, (job) => job.status === 'processing', 120_000);

    // An upload that has sent its head and half its file when the server dies.
    const upload = http.request(`${cli.base}/stt/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': '400000' },
    });
    upload.on('error', () => undefined);
    upload.write(
      '--b\r\nContent-Disposition: form-data; name="file"; filename="half.wav"\r\nContent-Type: audio/wav\r\n\r\n',
    );
    upload.write(Buffer.concat([wavHeader(300_000), Buffer.alloc(100_000)]));
    const documents = Array.from({ length: 12 }, (_, i) => ({
      entries: [{ text: `word${i}`, say: `say ${i}`, caseSensitive: false }],
    }));
    const writes = documents.map((doc) =>
      request(`${cli!.base}/lexicon`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(doc),
      }).catch(() => undefined),
    );
    await killServer();
    upload.destroy();
    await Promise.all(writes);

    cli = await startCli(['--port', '0', '--data-dir', probe.box.data], {}, 120_000);
    const health = await ask('health after the kill', () => request(`${cli!.base}/health`));
    assert.equal(health.status, 200);
    const interrupted = await ask('the job that ran at the kill', () => request(`${cli!.base}/jobs/${running.id}`));
    assert.equal(interrupted.json().status, 'interrupted');
    const lexicon = await ask('lexicon after the kill', () => request(`${cli!.base}/lexicon`));
    assert.equal(lexicon.status, 200, lexicon.body.toString());
    const entries = lexicon.json().entries;
    assert.ok(
      entries.length === 0 || documents.some((doc) => JSON.stringify(doc.entries) === JSON.stringify(entries)),
      JSON.stringify(entries),
    );
    assert.deepEqual(await temporaries(), [], 'no temporary file outlives a restart');
    // Every job folder on disk is a job the server knows: the cut upload left no folder without a record.
    for (const id of await readdir(path.join(probe.box.data, 'jobs'))) {
      const job = await ask(`job folder ${id} after the kill`, () => request(`${cli!.base}/jobs/${id}`));
      assert.equal(job.status, 200, `jobs/${id} has no job`);
    }
    await killServer();
    cli = undefined;
  });

  it("answers without a 5xx when a finished job's files were torn or swapped while the server was down", async () => {
    let t = await startTestServer({ dataDir: probe.box.data });
    const voiceId = await englishVoiceId(t.base);
    const ids = await Promise.all(
      ['Emptied.', 'Deleted.', 'Folder replaced.', 'Output a link.', 'Output a folder.'].map(async (text) => {
        const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text })).json();
        assert.equal((await waitForJob(t.base, job.id, isTerminal, 60_000)).status, 'succeeded');
        return job.id as string;
      }),
    );
    const stt = await new Promise<any>((resolve, reject) => {
      const req = http.request(
        `${t.base}/stt/jobs`,
        { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=b' } },
        (res) => {
          const chunks: Buffer[] = [];
          res
            .on('data', (c: Buffer) => chunks.push(c))
            .on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
        },
      );
      req.on('error', reject);
      req.end(
        Buffer.concat([
          Buffer.from(
            '--b\r\nContent-Disposition: form-data; name="language"\r\n\r\nen\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="q.wav"\r\n\r\n',
          ),
          wavHeader(16_000),
          Buffer.alloc(16_000),
          Buffer.from('\r\n--b--\r\n'),
        ]),
      );
    });
    assert.equal((await waitForJob(t.base, stt.id, isTerminal, 60_000)).status, 'succeeded');
    await t.stop();

    const folder = (id: string) => path.join(probe.box.data, 'jobs', id);
    const outputOf = async (id: string) =>
      path.join(
        folder(id),
        (await readdir(folder(id))).find((name) => name.startsWith('output'))!,
      );
    await truncate(await outputOf(ids[0]), 0);
    await rm(await outputOf(ids[1]));
    await rm(folder(ids[2]), { recursive: true });
    await writeFile(folder(ids[2]), 'a file where the folder was');
    const linked = await outputOf(ids[3]);
    await rm(linked);
    await symlink(baitPaths(probe.box).secret, linked);
    const asFolder = await outputOf(ids[4]);
    await rm(asFolder);
    await mkdir(asFolder);
    await writeFile(path.join(folder(stt.id), 'transcript.json'), '{"segments":[{"start":0,"end":');
    const journal = path.join(probe.box.data, 'jobs.json.journal');
    await rm(journal, { force: true });
    await symlink(baitPaths(probe.box).secret, journal);

    t = await startTestServer({ dataDir: probe.box.data });
    try {
      for (const id of ids) {
        for (const suffix of ['', '/output', '/transcript']) {
          const res = await ask(`GET /jobs/{torn}${suffix}`, () => request(`${t.base}/jobs/${id}${suffix}`));
          assert.ok(res.status < 500, `${id}${suffix}: ${res.status} ${res.body.toString().slice(0, 200)}`);
        }
        const ranged = await ask('GET /jobs/{torn}/output with Range', () =>
          request(`${t.base}/jobs/${id}/output`, { headers: { Range: 'bytes=0-10' } }),
        );
        assert.ok(ranged.status < 500, `${id} range: ${ranged.status}`);
      }
      for (const format of ['', '?format=srt', '?format=vtt']) {
        const res = await ask(`GET torn transcript${format}`, () =>
          request(`${t.base}/jobs/${stt.id}/transcript${format}`),
        );
        assert.ok(res.status < 500, `transcript${format}: ${res.status} ${res.body.toString().slice(0, 200)}`);
      }
      // New work after the swapped journal: written into the data directory, never through the link.
      const fresh = await ask('tts after the torn restart', () =>
        postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Fresh.' }),
      );
      assert.equal(fresh.status, 200);
      assert.equal((await waitForJob(t.base, fresh.json().id, isTerminal, 60_000)).status, 'succeeded');
      assert.equal(await readFile(baitPaths(probe.box).secret, 'utf8'), 'do not touch\n');
    } finally {
      await t.stop();
    }
  });

  probeEnds(probe, 'answered everything, and wrote nothing outside the data directory');
});
