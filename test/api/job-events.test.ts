import assert from 'node:assert/strict';
import { copyFile, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, isTerminal, postJson, request, useTestServer } from '../helpers/server';
import { readSse, type ReceivedEvent } from '../helpers/sse';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { compileValidators } from '../../src/contract/validation';

/** Long enough (a few seconds of synthesis) that the stream opens while the job still runs, even on a starved machine. */
const TEXT = 'Every sentence here takes the engine a moment. '.repeat(150);

async function collect(
  url: string,
  headers: Record<string, string> = {},
  stopAfter = Infinity,
): Promise<ReceivedEvent[]> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events: ReceivedEvent[] = [];
  for await (const event of readSse(response.body!)) {
    events.push(event);
    if (events.length >= stopAfter) {
      controller.abort();
      break;
    }
  }
  return events;
}

describe('GET /jobs/{id}/events', () => {
  const t = useTestServer();
  let voiceId: string;
  before(async () => {
    voiceId = await englishVoiceId(t.base);
  });

  it('sends the job on every status and phase change, progress at most 4 a second, the terminal state last, then ends', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: TEXT })).json();
    const events = await collect(`${t.base}/jobs/${job.id}/events`);
    assert.ok(events.every((event) => event.event === 'job' && event.id));
    const jobs = events.map((event) => JSON.parse(event.data));
    assert.equal(jobs.at(-1).status, 'succeeded');
    assert.equal(jobs.filter((j) => isTerminal(j)).length, 1);
    let progressOnly = 0;
    for (let i = 1; i < jobs.length; i++) {
      assert.ok(jobs[i].progress >= jobs[i - 1].progress, 'progress never falls');
      if (jobs[i].status === jobs[i - 1].status && jobs[i].phase === jobs[i - 1].phase) progressOnly++;
    }
    // At most one progress-only event per 250 ms at the server (arrival times may bunch, counts cannot grow).
    const seconds = (events.at(-1)!.at - events[0].at) / 1000;
    assert.ok(progressOnly <= Math.ceil(seconds * 4) + 2, `${progressOnly} progress events in ${seconds.toFixed(2)} s`);
    assert.ok(
      jobs.some((j) => j.status === 'processing' && j.progress > 0 && j.progress < 100),
      'progress while processing',
    );
    const ids = events.map((event) => Number(event.id!.split('-')[1]));
    assert.deepEqual(
      [...ids].sort((a, b) => a - b),
      ids,
      'ids rise',
    );
  });

  it('resumes after Last-Event-ID, and answers 204 once a finished job has nothing new', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    const firstTwo = await collect(`${t.base}/jobs/${job.id}/events`, {}, 2);
    assert.equal(firstTwo.length, 2);
    // Resume, then cancel the (long) job so the resumed stream reaches a terminal state soon.
    const resumed = await fetch(`${t.base}/jobs/${job.id}/events`, { headers: { 'Last-Event-ID': firstTwo[1].id! } });
    const rest: ReceivedEvent[] = [];
    for await (const event of readSse(resumed.body!)) {
      rest.push(event);
      if (rest.length === 1) await request(`${t.base}/jobs/${job.id}/cancel`, { method: 'POST' });
    }
    const seq = (event: ReceivedEvent) => Number(event.id!.split('-')[1]);
    assert.ok(
      rest.every((event) => seq(event) > seq(firstTwo[1])),
      `${firstTwo.map((e) => e.id).join(',')} then ${rest.map((e) => e.id).join(',')}`,
    );
    assert.equal(JSON.parse(rest.at(-1)!.data).status, 'cancelled', rest.at(-1)!.data);
    const after = await fetch(`${t.base}/jobs/${job.id}/events`, { headers: { 'Last-Event-ID': rest.at(-1)!.id! } });
    assert.equal(after.status, 204);
    const late = await collect(`${t.base}/jobs/${job.id}/events`);
    assert.equal(late.length, 1, 'a reader of a finished job gets its final state');
    assert.equal(JSON.parse(late[0].data).status, 'cancelled');
  });

  it('ends with the cancelled state when the job is cancelled', async () => {
    const job = (await postJson(`${t.base}/tts/jobs`, { voiceId, text: LONG_TEXT })).json();
    const response = await fetch(`${t.base}/jobs/${job.id}/events`);
    const events: any[] = [];
    for await (const event of readSse(response.body!)) {
      const data = JSON.parse(event.data);
      events.push(data);
      if (events.length === 1) await request(`${t.base}/jobs/${job.id}/cancel`, { method: 'POST' });
    }
    assert.equal(events.at(-1).status, 'cancelled');
  });

  it('has the same 404 rules as GET /jobs/{id}', async () => {
    assertErrorBody(await request(`${t.base}/jobs/00000000-0000-4000-8000-000000000000/events`), 404, 'JOB_NOT_FOUND');
    assertErrorBody(await request(`${t.base}/jobs/not-a-uuid/events`), 404, 'JOB_NOT_FOUND');
    const checked = compileValidators().ttsRequest({ voiceId, text: 'Editor.' });
    assert.ok(checked.ok);
    const voice = { engine: 'espeak-ng' as const, engineVoiceId: 'gmw/en-US', languageCode: 'en-US' };
    const editorJob = await t.server.jobs.createTtsJob(
      { origin: 'editor', request: checked.value, voice },
      t.server.jobs.reserve('editor'),
    );
    assertErrorBody(await request(`${t.base}/jobs/${editorJob.id}/events`), 404, 'JOB_NOT_FOUND');
  });
});

describe('GET /jobs/{id}/events for a transcription', () => {
  const t = useTestServer();
  before(async () => {
    await mkdir(path.join(t.dataDir, 'models', 'whisper'), { recursive: true });
    await symlink(
      testModel('whisper/ggml-synthetic-random.bin'),
      path.join(t.dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
    );
    await mkdir(path.join(t.dataDir, 'models', 'vad'), { recursive: true });
    await copyFile(
      testModel('vad/ggml-silero-v6.2.0.bin'),
      path.join(t.dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );
  });

  it('sends the segments as they are recognized, before the terminal job', async () => {
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { diarizationEnabled: 'false', language: 'en' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
    );
    const job = res.json();
    const events = await collect(`${t.base}/jobs/${job.id}/events`);
    const last = JSON.parse(events.at(-1)!.data);
    assert.equal(last.status, 'succeeded');
    const segments = events.filter((event) => event.event === 'segment').map((event) => JSON.parse(event.data));
    // The transcript may merge segments too short to stand alone, never add any.
    assert.ok(
      segments.length >= last.result.segmentCount,
      `${segments.length} live, ${last.result.segmentCount} in the transcript`,
    );
    assert.ok(last.result.segmentCount === 0 || segments.length > 0);
    for (const segment of segments) {
      assert.equal(typeof segment.text, 'string');
      assert.ok(segment.start >= 0 && segment.end >= segment.start && segment.end <= 11.1);
    }
  });
});
