/**
 * A damaged job store (snapshot or journal: truncated, garbage, wrong shape, not even a file): the server
 * starts every time, keeps a copy of what it could not use, says so in the log, and keeps every record
 * that is still sound. A record whose id would lead out of the jobs folder never reaches the job service.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { compileValidators } from '../../src/contract/validation';
import { isTerminal, postJson, request, startTestServer, tempDir, waitForJob } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';
import { recordingLogger } from './support';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** A finished Local API TTS job as the store writes it. */
const finishedJob = (id: string, extra: object = {}) => ({
  id,
  name: `job ${id.slice(0, 8)}`,
  kind: 'tts',
  status: 'succeeded',
  progress: 100,
  phase: 'done',
  backend: 'espeak-ng',
  result: { mediaType: 'audio/wav' },
  error: null,
  createdAt: 1_700_000_000_000,
  startedAt: 1_700_000_000_100,
  finishedAt: 1_700_000_000_200,
  origin: 'api',
  outputFile: 'output.wav',
  input: {
    kind: 'tts',
    characters: 5,
    options: { outputFormat: 'wav' },
    voice: { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US' },
  },
  ...extra,
});
const GOOD = '11111111-1111-4111-8111-111111111111';
const GOOD_TOO = '22222222-2222-4222-8222-222222222222';

/** Writes `files` into a fresh data directory (a value of null makes a directory), starts the server on it. */
async function startOn(files: Record<string, string | null>, options = {}) {
  const dataDir = await tempDir();
  dirs.push(dataDir);
  for (const [name, content] of Object.entries(files)) {
    if (content === null) await mkdir(path.join(dataDir, name), { recursive: true });
    else await writeFile(path.join(dataDir, name), content);
  }
  const log = recordingLogger();
  const t = await startTestServer({ dataDir, log, ...options });
  return { t, log, dataDir };
}

const keptCopies = async (dataDir: string): Promise<string[]> =>
  (await readdir(dataDir)).filter((n) => n.includes('.damaged-'));

describe('a damaged job store', () => {
  const unreadable: Record<string, string | null> = {
    'truncated mid-record': '{"version":1,"jobs":[{"id":"11111111-1111',
    'empty (0 bytes)': '',
    'binary garbage': '\u0000\u00ff\u00fe\u0081garbage',
    'a JSON array': '[]',
    'jobs that are not a list': '{"version":1,"jobs":{"a":1}}',
    'a directory': null,
  };
  for (const [damage, content] of Object.entries(unreadable)) {
    it(`starts when jobs.json is ${damage}, keeps it aside and says so`, async () => {
      const { t, log, dataDir } = await startOn({ 'jobs.json': content });
      try {
        assert.equal((await request(`${t.base}/health`)).status, 200);
        const copies = await keptCopies(dataDir);
        assert.equal(copies.length, 1, copies.join());
        assert.ok(
          log.lines.some((l) => l.startsWith('error ') && /could not be read/.test(l) && l.includes(copies[0])),
          log.lines.join('\n'),
        );
      } finally {
        await t.stop();
      }
    });
  }

  it('keeps the sound records of a snapshot, leaves out the damaged ones, and never lets an id reach outside', async () => {
    const snapshot = {
      version: 1,
      jobs: [
        finishedJob(GOOD),
        null,
        5,
        'job',
        { id: GOOD_TOO },
        finishedJob(GOOD_TOO, { status: 'exploded' }),
        finishedJob('../victim', { finishedAt: 1 }),
        finishedJob('x', { outputFile: '../../api-key' }),
      ],
    };
    const { t, log, dataDir } = await startOn({ 'jobs.json': JSON.stringify(snapshot) }, { maxFinishedJobs: 1 });
    try {
      await mkdir(path.join(dataDir, 'victim'));
      await writeFile(path.join(dataDir, 'victim', 'precious.txt'), 'still here');
      await mkdir(path.join(dataDir, 'jobs', GOOD), { recursive: true });
      await writeFile(path.join(dataDir, 'jobs', GOOD, 'output.wav'), 'RIFF');
      assert.equal((await request(`${t.base}/jobs/${GOOD}`)).json().status, 'succeeded');
      assert.equal((await request(`${t.base}/jobs/${GOOD}/output`)).body.toString(), 'RIFF');
      assert.equal((await request(`${t.base}/jobs/${GOOD_TOO}`)).status, 404);
      assert.ok(
        log.lines.some((l) => /held 7 damaged job records/.test(l)),
        log.lines.join('\n'),
      );
      assert.equal((await keptCopies(dataDir)).length, 1);
      // A finished job makes the server prune its history down to one job: only sound records are candidates.
      const voiceId = await englishVoiceId(t.base);
      const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Prune.' })).json();
      assert.equal((await waitForJob(t.base, job.id, isTerminal)).status, 'succeeded');
      assert.equal(await readFile(path.join(dataDir, 'victim', 'precious.txt'), 'utf8'), 'still here');
    } finally {
      await t.stop();
    }
  });

  it('applies the sound journal lines, leaves out damaged ones, keeps a copy, and still writes afterwards', async () => {
    const journal = [
      JSON.stringify({ put: finishedJob(GOOD) }),
      'not json at all',
      JSON.stringify({ put: null }),
      '5',
      JSON.stringify({ put: finishedJob('../../x') }),
      JSON.stringify({ put: finishedJob(GOOD_TOO) }),
      '{"put":{"id":"33333333-', // torn by a crash: the last line, dropped quietly
    ].join('\n');
    const { t, log, dataDir } = await startOn({ 'jobs.json': '{"version":1,"jobs":[]}', 'jobs.json.journal': journal });
    try {
      assert.equal((await request(`${t.base}/jobs/${GOOD}`)).json().status, 'succeeded');
      assert.equal((await request(`${t.base}/jobs/${GOOD_TOO}`)).json().status, 'succeeded');
      assert.ok(
        log.lines.some((l) => /held 4 damaged lines/.test(l)),
        log.lines.join('\n'),
      );
      assert.equal((await keptCopies(dataDir)).length, 1);
    } finally {
      await t.stop();
    }
  });

  it('starts when the journal is a directory, moves it aside, and persists new jobs in a fresh journal', async () => {
    const { t, log, dataDir } = await startOn({ 'jobs.json.journal': null });
    let id: string;
    try {
      assert.ok(
        log.lines.some((l) => /journal .* could not be read/.test(l)),
        log.lines.join('\n'),
      );
      const voiceId = await englishVoiceId(t.base);
      id = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Written after the damage.' })).json().id;
      await waitForJob(t.base, id, isTerminal);
    } finally {
      await t.stop();
    }
    const again = await startTestServer({ dataDir, log: recordingLogger() });
    try {
      assert.equal((await request(`${again.base}/jobs/${id}`)).json().status, 'succeeded');
    } finally {
      await again.stop();
    }
  });
  it('never runs a finished job again for a hand-edited second record, nor hands the engine a job with options the API refuses', async () => {
    const checked = compileValidators().ttsRequest({ voiceId: GOOD, text: 'Hello.' }); // the voice that runs is the record's `voice`
    assert.ok(checked.ok);
    const { text: _text, ...options } = checked.value;
    const queued = (id: string, changed: object = {}) =>
      finishedJob(id, {
        status: 'queued',
        progress: 0,
        phase: 'queued',
        backend: null,
        result: null,
        startedAt: null,
        finishedAt: null,
        outputFile: null,
        input: {
          kind: 'tts',
          characters: 6,
          options: { ...options, ...changed },
          voice: { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US' },
        },
      });
    const snapshot = { version: 1, jobs: [finishedJob(GOOD), queued(GOOD), queued(GOOD_TOO, { sampleRate: 1e9 })] };
    const { t, log } = await startOn({
      'jobs.json': JSON.stringify(snapshot),
      jobs: null,
      [`jobs/${GOOD}`]: null,
      [`jobs/${GOOD}/output.wav`]: 'RIFF',
      [`jobs/${GOOD}/input.txt`]: 'Hello.',
      [`jobs/${GOOD_TOO}`]: null,
      [`jobs/${GOOD_TOO}/input.txt`]: 'Hello.',
    });
    try {
      const before = (await request(`${t.base}/jobs/${GOOD}`)).json();
      // The queue runs oldest first: once a new job has finished, anything recovered at start has run.
      const job = (
        await postJson(`${t.base}/tts/jobs`, {
          voiceId: await englishVoiceId(t.base),
          text: 'After the recovered ones.',
        })
      ).json();
      await waitForJob(t.base, job.id, isTerminal);
      assert.deepEqual((await request(`${t.base}/jobs/${GOOD}`)).json(), before);
      assert.equal(before.status, 'succeeded');
      assert.equal((await request(`${t.base}/jobs/${GOOD}/output`)).body.toString(), 'RIFF');
      assert.equal(
        (await request(`${t.base}/jobs/${GOOD_TOO}`)).status,
        404,
        'the record with a sample rate of 1e9 never became a job',
      );
      assert.ok(
        log.lines.some(
          (l) =>
            /1 damaged job records \(the first: input\.options\.sampleRate: must be one of/.test(l) &&
            /1 second records of one job id/.test(l),
        ),
        log.lines.join('\n'),
      );
    } finally {
      await t.stop();
    }
  });
});
