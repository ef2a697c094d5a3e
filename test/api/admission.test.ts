/**
 * What the Local API refuses at creation and how its jobs look while they run, through the job core that
 * every door shares (src/jobs/admission.ts, src/jobs/job-service.ts).
 */
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { JobRecord } from '../../src/jobs/types';
import { uploadMultipart } from '../helpers/multipart';
import {
  assertErrorBody,
  isTerminal,
  postJson,
  request,
  startTestServer,
  waitForJob,
  useTestServer,
} from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { installSyntheticWhisper } from '../pressure/support';

const JFK = () => testModel('audio', 'jfk.wav');

describe('admission at POST /tts/jobs and POST /stt/jobs', () => {
  const t = useTestServer({ queueCapacity: 2 });
  let voiceId: string;
  before(async () => {
    voiceId = await englishVoiceId(t.base);
    await installSyntheticWhisper(t.dataDir);
  });

  const cancel = (id: string) => request(`${t.base}/jobs/${id}/cancel`, { method: 'POST' });

  it('refuses a text that is only whitespace with 422, before a job exists', async () => {
    const res = await postJson(`${t.base}/tts/jobs`, { voiceId, text: ' \n\t\u00a0 ' });
    assert.match(
      assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
      /^text: has nothing to speak, only whitespace/,
    );
    assert.equal(t.server.jobs.list().length, 0);
  });

  it('refuses a narration whose timeline runs past 10 hours with 422 naming the cue and its line', async () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nHello.\n\n2\n99:00:00,000 --> 99:00:01,000\nMuch later.\n';
    const far = await postJson(`${t.base}/tts/jobs`, { voiceId, text: srt, inputFormat: 'srt' });
    assert.match(
      assertErrorBody(far, 422, 'INVALID_REQUEST').error.message,
      /^text: cue 2 \(line 6\) ends at 99:00:01,000; a narration may last at most 10 hours/,
    );
    const vtt = await postJson(`${t.base}/tts/jobs`, {
      voiceId,
      text: 'WEBVTT\n\n99:59:59.000 --> 99:59:59.900\nLate.\n',
      inputFormat: 'vtt',
    });
    assert.match(
      assertErrorBody(vtt, 422, 'INVALID_REQUEST').error.message,
      /^text: cue 1 \(line 3\) ends at 99:59:59\.900/,
    );
    assert.equal(t.server.jobs.list().length, 0);
  });

  it('says that a 0 ms cue has no duration', async () => {
    const res = await postJson(`${t.base}/tts/jobs`, {
      voiceId,
      text: '1\n00:00:01,000 --> 00:00:01,000\nNow.\n',
      inputFormat: 'srt',
    });
    assert.match(
      assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
      /^text: not valid SRT, line 2: the cue has no duration/,
    );
  });

  it('names a job after its text without splitting a surrogate pair', async () => {
    const res = await postJson(`${t.base}/tts/jobs`, { voiceId, text: `${'😀'.repeat(100)} yes` });
    assert.equal(res.status, 200, res.body.toString());
    const job = res.json();
    assert.equal(job.name, `${'😀'.repeat(57)}…`);
    await cancel(job.id);
  });

  it('answers an exact speakerCount without the diarization models like diarizationEnabled=true: 409 naming the models', async () => {
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { speakerCountMode: 'exact', speakerCount: '2' },
      { source: JFK(), filename: 'jfk.wav' },
    );
    const { message } = assertErrorBody(res, 409, 'MODEL_NOT_INSTALLED').error;
    assert.match(
      message,
      /speakerCount asks for speaker diarization.*diarization models \(pyannote segmentation and speaker embedding\)/,
    );
    assert.equal(t.server.jobs.list().filter((job) => job.kind === 'stt').length, 0);
  });

  it('gives back the queue place of a TTS create that failed (here: the jobs folder could not be made)', async () => {
    const jobsDir = path.join(t.dataDir, 'jobs');
    await rm(jobsDir, { recursive: true, force: true });
    await writeFile(jobsDir, 'not a folder');
    try {
      for (let i = 0; i < 3; i++)
        assertErrorBody(await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Hello.' }), 500, 'INTERNAL_ERROR');
    } finally {
      await rm(jobsDir);
    }
    // The capacity is 2: had the failures kept their places, these would get 429 QUEUE_FULL.
    const created = [];
    for (let i = 0; i < 2; i++) {
      const res = await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT });
      assert.equal(res.status, 200, res.body.toString());
      created.push(res.json().id);
    }
    assertErrorBody(await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'One too many.' }), 429, 'QUEUE_FULL');
    for (const id of created) await cancel(id);
  });
});

describe('job states and backend, the same for TTS and STT', () => {
  const t = useTestServer();
  let voiceId: string;
  before(async () => {
    voiceId = await englishVoiceId(t.base);
    await installSyntheticWhisper(t.dataDir);
  });

  it('shows an STT job as loading_model while the engine reads the media and the model, then processing', async () => {
    const seen: JobRecord[] = [];
    const record = (job: JobRecord): void => void seen.push(job);
    t.server.jobs.on('change', record);
    try {
      const res = await uploadMultipart(
        `${t.base}/stt/jobs`,
        { language: 'en', diarizationEnabled: 'false' },
        { source: JFK(), filename: 'jfk.wav' },
      );
      assert.equal(res.status, 200, res.body.toString());
      const done = await waitForJob(t.base, res.json().id, isTerminal, 60_000);
      assert.equal(done.status, 'succeeded', done.error);
      const steps = seen
        .filter((job) => job.id === done.id)
        .map((job) => `${job.status}/${job.phase}`)
        .filter((step, i, all) => step !== all[i - 1]);
      const firstProcessing = steps.findIndex((step) => step.startsWith('processing/'));
      assert.deepEqual(
        steps.slice(0, 4),
        ['queued/queued', 'loading_model/loading_model', 'loading_model/decoding', 'loading_model/loading_model'],
        steps.join(' '),
      );
      assert.ok(firstProcessing > 3, steps.join(' '));
      assert.ok(
        steps.slice(firstProcessing).every((step) => !/\/(decoding|loading_model)$/.test(step)),
        steps.join(' '),
      );
      assert.ok(
        seen
          .filter((job) => job.id === done.id && job.status !== 'queued')
          .every((job) => job.backend === 'whisper.cpp'),
        'backend is set from the start',
      );
    } finally {
      t.server.jobs.off('change', record);
    }
  });

  it('names the backend while a job runs and after it was cancelled', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    assert.equal(job.backend, null, 'no engine is chosen while the job waits');
    const running = await waitForJob(t.base, job.id, (j) => j.status !== 'queued');
    assert.equal(running.backend, 'espeak-ng');
    const cancelled = (await request(`${t.base}/jobs/${job.id}/cancel`, { method: 'POST' })).json();
    assert.deepEqual([cancelled.status, cancelled.backend], ['cancelled', 'espeak-ng']);
  });

  it('keeps the backend of a job interrupted by a restart', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    await waitForJob(t.base, job.id, (j) => j.status === 'processing');
    await t.stop();
    const again = await startTestServer({ dataDir: t.dataDir });
    try {
      const interrupted = (await request(`${again.base}/jobs/${job.id}`)).json();
      assert.deepEqual([interrupted.status, interrupted.backend], ['interrupted', 'espeak-ng']);
    } finally {
      await again.stop();
    }
  });
});
