import assert from 'node:assert/strict';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  assertErrorBody,
  isTerminal,
  postJson,
  request,
  startTestServer,
  waitFor,
  waitForJob,
  type TestServer,
} from '../helpers/server';
import { tempDir } from '../helpers/temp';
import { englishVoiceId } from '../helpers/voices';

describe('retention of finished jobs', () => {
  let t: TestServer;
  after(() => t?.dispose());

  it('prunes the oldest finished jobs and their folders beyond the limit, never the newest', async () => {
    t = await startTestServer({ maxFinishedJobs: 2 });
    const voiceId = await englishVoiceId(t.base);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: `Job number ${i}.` })).json();
      await waitForJob(t.base, job.id, isTerminal);
      ids.push(job.id);
    }
    // Pruning follows the last job's end, which clients may see a moment before it.
    for (const id of ids.slice(0, 2)) {
      const gone = await waitFor(
        `job ${id} to be pruned`,
        () => request(`${t.base}/jobs/${id}`),
        (res) => res.status === 404,
        5000,
      );
      assertErrorBody(gone, 404, 'JOB_NOT_FOUND');
    }
    for (const id of ids.slice(2)) assert.equal((await request(`${t.base}/jobs/${id}/output`)).status, 200);
    const folders = await waitFor(
      'the pruned folders to go',
      async () => (await readdir(`${t.dataDir}/jobs`)).sort(),
      (names) => names.length === 2,
      5000,
    );
    assert.deepEqual(folders, ids.slice(2).sort());
  });
});

describe("the data directory's caches at server start", () => {
  it('prunes each cache to its limits, from SPEECH_STUDIO_CACHE_LIMITS and the server options, keeping what was just used', async () => {
    const dataDir = await tempDir('cache limits ');
    const place = async (relative: string, bytes: number, daysAgo: number): Promise<string> => {
      const file = path.join(dataDir, ...relative.split('/'));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, Buffer.alloc(bytes));
      const at = new Date(Date.now() - daysAgo * 86_400_000);
      await utimes(file, at, at);
      return file;
    };
    const oldWaveform = await place('waveforms/old.peaks', 10, 20);
    const keptWaveform = await place('waveforms/kept.peaks', 10, 5);
    const bigOld = await place('cache/audiobook/old.wav', 600_000, 3);
    const bigNew = await place('cache/audiobook/new.wav', 600_000, 0);
    const oldDamaged = await place('jobs.json.journal.damaged-1700000000000', 10, 200);
    const oldRegions = await place('cache/speech-regions/a.json', 10, 100);
    const previous = process.env.SPEECH_STUDIO_CACHE_LIMITS;
    process.env.SPEECH_STUDIO_CACHE_LIMITS = JSON.stringify({
      waveforms: { maxDays: 10 },
      audiobook: { maxMegabytes: 100 },
    });
    let t: TestServer | undefined;
    try {
      t = await startTestServer({ dataDir, cacheLimits: { audiobook: { maxMegabytes: 1 } } });
      const gone = (file: string): Promise<boolean> =>
        stat(file).then(
          () => false,
          () => true,
        );
      for (const file of [oldWaveform, bigOld, oldDamaged, oldRegions])
        await waitFor(`${path.basename(file)} to be pruned`, () => gone(file), Boolean, 5000);
      for (const file of [keptWaveform, bigNew])
        assert.equal(await gone(file), false, `${path.basename(file)} is kept`);
      assert.equal((await request(`${t.base}/health`)).status, 200);
    } finally {
      if (previous === undefined) delete process.env.SPEECH_STUDIO_CACHE_LIMITS;
      else process.env.SPEECH_STUDIO_CACHE_LIMITS = previous;
      await t?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
