import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { readWavInfo } from '../../src/audio/wav-reader';
import {
  assertErrorBody,
  isTerminal,
  postJson,
  rawPathRequest,
  request,
  startTestServer,
  waitFor,
  waitForJob,
  type TestServer,
  useTestServer,
} from '../helpers/server';
import { isAlive } from '../helpers/processes';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

describe('TTS jobs through the Local API with espeak-ng', () => {
  const t = useTestServer();
  let voiceId: string;
  before(async () => {
    voiceId = await englishVoiceId(t.base);
  });

  it('runs a job from POST /tts/jobs to a WAV with the requested rate, channels and length', async () => {
    const created = await postJson(`${t.base}/tts/jobs`, {
      voiceId,
      text: 'Hello from Speech Studio. This is a test of the local speech API.',
      sampleRate: 44100,
      audioChannels: 'stereo',
    });
    assert.equal(created.status, 200);
    const job = created.json();
    assert.match(job.id, /^[0-9a-f-]{36}$/);
    assert.equal(job.kind, 'tts');
    assert.equal(job.status, 'queued');
    assert.equal(job.progress, 0);
    assert.equal(typeof job.createdAt, 'number');
    assert.ok(Math.abs(job.createdAt - Date.now()) < 60_000, 'createdAt is epoch milliseconds');

    const done = await waitForJob(t.base, job.id, isTerminal);
    assert.equal(done.status, 'succeeded', done.error);
    assert.equal(done.progress, 100);
    assert.equal(done.phase, 'done');
    assert.equal(done.backend, 'espeak-ng');
    assert.ok(done.startedAt >= done.createdAt && done.finishedAt >= done.startedAt);
    assert.equal(done.result.mediaType, 'audio/wav');
    assert.equal(done.result.sampleRate, 44100);
    assert.equal(done.result.audioChannels, 'stereo');

    const output = await request(`${t.base}/jobs/${job.id}/output`);
    assert.equal(output.status, 200);
    assert.equal(output.headers['content-type'], 'audio/wav');
    assert.equal(Number(output.headers['content-length']), output.body.length);
    const wav = readWavInfo(output.body);
    assert.equal(wav.sampleRate, 44100);
    assert.equal(wav.channels, 2);
    assert.equal(wav.bitsPerSample, 16);
    const seconds = wav.frames / wav.sampleRate;
    assert.ok(seconds > 2 && seconds < 12, `speech of ${seconds} s for two sentences`);
    assert.ok(Math.abs(seconds - done.result.durationSeconds) < 0.01);
    assert.equal(done.result.bytes, output.body.length);
  });

  it('reports progress that only rises while a long text is synthesized in chunks', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT.slice(0, 4000) })).json();
    const seen: number[] = [];
    const statuses = new Set<string>();
    const done = await waitFor(
      'the long job',
      async () => (await request(`${t.base}/jobs/${job.id}`)).json(),
      (j) => {
        seen.push(j.progress);
        statuses.add(j.status);
        return isTerminal(j);
      },
      120_000,
    );
    assert.equal(done.status, 'succeeded', done.error);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `progress fell: ${seen.join(',')}`);
    assert.ok(
      seen.some((p) => p > 0 && p < 100),
      `no intermediate progress in ${seen.join(',')}`,
    );
    assert.ok(statuses.has('processing'));
  });

  it('validates every field and names it in the 422 message', async () => {
    const cases: [object, RegExp][] = [
      [{ text: 'hi' }, /^voiceId: is required/],
      [{ voiceId, text: '' }, /^text: must be 1 to 100000 characters/],
      [{ voiceId, text: 'a'.repeat(100_001) }, /^text: must be 1 to 100000 characters/],
      [{ voiceId, text: 'hi', extra: 1 }, /^extra: is not a known field/],
      [{ voiceId, text: 'hi', sampleRate: 8000 }, /^sampleRate: must be one of/],
      [{ voiceId, text: 'hi', speed: 2.5 }, /^speed: must be from 0.5 to 2/],
      [{ voiceId, text: 'hi', steps: 7 }, /^steps: must be from 8 to 64/],
      [{ voiceId, text: 'hi', guidanceScale: 6 }, /^guidanceScale: must be from 0.5 to 5/],
      [{ voiceId, text: 'hi', duration: 0 }, /^duration: must be greater than 0/],
      [{ voiceId, text: 'hi', bitrateKbps: 100 }, /^bitrateKbps: must be one of/],
      [{ voiceId, text: 'hi', audioChannels: 'quad' }, /^audioChannels: must be one of/],
      [{ voiceId, text: 'hi', denoise: 'yes' }, /^denoise: must be boolean/],
      [{ voiceId: 'not-a-uuid', text: 'hi' }, /^voiceId: must be a uuid/],
      [{ voiceId: '00000000-0000-4000-8000-000000000000', text: 'hi' }, /^voiceId: no voice/],
      [{ voiceId, text: 'hi', outputFormat: 'ogg' }, /^outputFormat: must be one of "wav", "mp3", "aac", "flac"/],
      [{ voiceId, text: 'hi', inputFormat: 'srt' }, /^text: not valid SRT, line 1: /],
      [
        { voiceId, text: 'WEBVTT\n\n00:01.000 --> 00:00.500\nx', inputFormat: 'vtt' },
        /^text: not valid VTT, line 3: the cue ends before it starts/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await postJson(`${t.base}/tts/jobs`, body);
      assert.match(
        assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
        message,
        JSON.stringify(body).slice(0, 80),
      );
    }
  });

  it('accepts the 100000-character maximum', async () => {
    const res = await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'a '.repeat(50_000) });
    assert.equal(res.status, 200);
    await request(`${t.base}/jobs/${res.json().id}/cancel`, { method: 'POST' });
  });

  it('answers 404 for unknown and malformed job ids, and for traversal attempts', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', '..%2F..%2Fjobs.json', '%2e%2e', '..']) {
      // Raw paths: a URL parser would resolve the dots before the server saw them.
      const raw = (suffix: string, method = 'GET') => rawPathRequest(t.server.port, method, `/v1/jobs/${id}${suffix}`);
      assertErrorBody(await raw(''), 404, 'JOB_NOT_FOUND');
      assertErrorBody(await raw('/output'), 404, 'JOB_NOT_FOUND');
      assertErrorBody(await raw('/cancel', 'POST'), 404, 'JOB_NOT_FOUND');
    }
  });

  it('answers output and transcript requests that do not fit the job with 409', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    assertErrorBody(await request(`${t.base}/jobs/${job.id}/output`), 409, 'JOB_NOT_COMPLETED');
    assertErrorBody(await request(`${t.base}/jobs/${job.id}/transcript`), 409, 'WRONG_JOB_KIND');
    assertErrorBody(await request(`${t.base}/jobs/${job.id}/transcript?format=doc`), 422, 'INVALID_REQUEST');
    await request(`${t.base}/jobs/${job.id}/cancel`, { method: 'POST' });
    assertErrorBody(await request(`${t.base}/jobs/${job.id}/output`), 409, 'JOB_NOT_COMPLETED');
  });

  it('cancels a queued job at once and a running job, whose engine process ends; the next job still runs', async () => {
    const running = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    const queued = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Queued.' })).json();
    await waitForJob(t.base, running.id, (j) => j.status === 'processing');
    assert.equal((await request(`${t.base}/jobs/${queued.id}`)).json().status, 'queued');

    const cancelledQueued = await request(`${t.base}/jobs/${queued.id}/cancel`, { method: 'POST' });
    assert.equal(cancelledQueued.status, 200);
    assert.equal(cancelledQueued.json().status, 'cancelled');

    const pid = t.server.engine.pids[0];
    const cancelled = await request(`${t.base}/jobs/${running.id}/cancel`, { method: 'POST' });
    assert.equal(cancelled.json().status, 'cancelled');
    await waitFor(
      'the engine process to end',
      async () => isAlive(pid),
      (alive) => !alive,
      5000,
    );

    assertErrorBody(await request(`${t.base}/jobs/${running.id}/cancel`, { method: 'POST' }), 422, 'JOB_NOT_ACTIVE');
    const after = (await request(`${t.base}/jobs/${running.id}`)).json();
    assert.equal(after.status, 'cancelled');
    assert.ok(after.finishedAt >= after.startedAt);

    const next = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'After a cancel.' })).json();
    assert.equal((await waitForJob(t.base, next.id, isTerminal)).status, 'succeeded');
  });

  it('fails the running job with a readable error when the engine is killed, and runs the next one', async () => {
    const victim = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    const next = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'The next job.' })).json();
    await waitForJob(t.base, victim.id, (j) => j.status === 'processing');
    const [pid] = t.server.engine.pids;
    process.kill(pid, 'SIGKILL');
    const failed = await waitForJob(t.base, victim.id, isTerminal);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, /speech engine stopped unexpectedly/);
    assert.doesNotMatch(failed.error, /\n\s+at /, 'no stack trace');
    const succeeded = await waitForJob(t.base, next.id, isTerminal);
    assert.equal(succeeded.status, 'succeeded', succeeded.error);
    assert.ok(!t.server.engine.pids.includes(pid));
  });

  it('keeps only the output in a finished job folder', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Tidy.' })).json();
    await waitForJob(t.base, job.id, isTerminal);
    // Beside the output, the record a damaged job store is rebuilt from.
    assert.deepEqual((await readdir(`${t.dataDir}/jobs/${job.id}`)).sort(), ['job.json', 'output.wav']);
  });
});

describe('the queue of Local API jobs', () => {
  let t: TestServer;
  after(() => t?.dispose());

  it('accepts exactly the capacity of 32 waiting or running jobs; the 33rd gets 429 QUEUE_FULL with Retry-After', async () => {
    t = await startTestServer();
    const voiceId = await englishVoiceId(t.base);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postJson(`${t.base}/tts/jobs`, { voiceId, text: `${LONG_TEXT} ${i}` })),
    );
    const accepted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    assert.equal(accepted.length, 32);
    assert.equal(refused.length, 8);
    for (const r of refused) {
      assertErrorBody(r, 429, 'QUEUE_FULL');
      assert.ok(Number(r.headers['retry-after']) > 0);
    }
    assert.equal(new Set(accepted.map((r) => r.json().id)).size, 32, 'no duplicated job');
    const first = accepted[0].json().id;
    await request(`${t.base}/jobs/${first}/cancel`, { method: 'POST' });
    const again = await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'One more.' });
    assert.equal(again.status, 200, 'a cancelled job frees its place');
  });
});
