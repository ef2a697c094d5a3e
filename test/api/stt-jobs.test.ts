import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { AUDIO_FORMATS, encodeAudio, encodeVideoWithAudio, type AudioFormat } from '../helpers/media-fixtures';
import { uploadMultipart } from '../helpers/multipart';
import {
  assertErrorBody,
  isTerminal,
  request,
  tempDir,
  waitFor,
  waitForJob,
  type TestServer,
  useTestServer,
} from '../helpers/server';
import { containerSkip, installSttModel, sttEngineUnderTest } from '../helpers/stt-engine';
import { assertMonotonicCues, parseSrt, parseVtt } from '../helpers/subtitles';
import { testModel } from '../helpers/test-models';

const run = promisify(execFile);
const engine = sttEngineUnderTest();
// The long input must outlast a cancel: the synthetic Parakeet model runs about 50 times faster than whisper's.
const LONG_REPEATS = engine.name === 'parakeet' ? 40 : 5;

async function installModels(dataDir: string): Promise<void> {
  await installSttModel(dataDir);
  await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
  await copyFile(
    testModel('vad/ggml-silero-v6.2.0.bin'),
    path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
  );
}

const MEDIA_TYPES = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  'json-simple': 'application/json; charset=utf-8',
  'json-full': 'application/json; charset=utf-8',
};

async function transcribe(t: TestServer, file: string, fields: Record<string, string> = {}): Promise<any> {
  const res = await uploadMultipart(
    `${t.base}/stt/jobs`,
    { diarizationEnabled: 'false', ...fields },
    { source: file, filename: path.basename(file) },
  );
  assert.equal(res.status, 200, res.body.toString());
  return waitForJob(t.base, res.json().id, isTerminal, 60_000);
}

describe(`STT jobs through the Local API with ${engine.transcriptBackend}`, () => {
  const t = useTestServer();
  let media: string;
  before(async () => {
    media = await tempDir();
    await installModels(t.dataDir);
  });
  after(async () => {
    await rm(media, { recursive: true, force: true });
  });

  for (const format of Object.keys(AUDIO_FORMATS) as AudioFormat[]) {
    it(`transcribes ${format} into all five transcript formats`, { skip: containerSkip(format, engine) }, async () => {
      const file = await encodeAudio(testModel('audio/jfk.wav'), media, format, `jfk-${format}`);
      const job = await transcribe(t, file, { language: 'en' });
      assert.equal(job.status, 'succeeded', job.error);
      assert.equal(job.backend, engine.backend);
      assert.equal(job.result.language, 'en');
      assert.ok(Math.abs(job.result.durationSeconds - 11) < 0.6, `duration ${job.result.durationSeconds}`);
      assert.equal(job.result.speakerCount, null);
      assert.deepEqual([...job.result.transcriptFormats].sort(), ['json-full', 'json-simple', 'srt', 'txt', 'vtt']);

      const get = async (f: string) => {
        const res = await request(`${t.base}/jobs/${job.id}/transcript?format=${f}`);
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-type'], MEDIA_TYPES[f as keyof typeof MEDIA_TYPES], f);
        return res.body.toString('utf8');
      };
      const full = JSON.parse(await get('json-full'));
      assert.equal(
        JSON.stringify(JSON.parse((await request(`${t.base}/jobs/${job.id}/transcript`)).body.toString())),
        JSON.stringify(full),
        'json-full is the default',
      );
      assert.equal(full.segments.length, job.result.segmentCount);
      let previous = 0;
      for (const segment of full.segments) {
        assert.ok(
          segment.start >= previous - 1e-9 && segment.end > segment.start && segment.end <= full.durationSeconds + 0.01,
        );
        assert.ok(Array.isArray(segment.words));
        previous = segment.start;
      }
      assert.equal(full.backend, engine.transcriptBackend);
      assert.equal(full.model, engine.modelName);
      const simple = JSON.parse(await get('json-simple'));
      assert.deepEqual(Object.keys(simple).sort(), ['durationSeconds', 'language', 'segments', 'text']);
      assert.ok(simple.segments.every((s: object) => !('words' in s)));
      const srt = parseSrt(await get('srt'));
      const vtt = parseVtt(await get('vtt'));
      assertMonotonicCues(srt);
      assertMonotonicCues(vtt);
      assert.equal(srt.length, vtt.length);
      assert.equal(typeof (await get('txt')), 'string');
      assertErrorBody(await request(`${t.base}/jobs/${job.id}/output`), 409, 'WRONG_JOB_KIND');
    });
  }

  it('transcribes an MP4 with a video track', async () => {
    const job = await transcribe(t, await encodeVideoWithAudio(testModel('audio/jfk.wav'), media));
    assert.equal(job.status, 'succeeded', job.error);
  });

  it('keeps timestamps relative to the original file when cropping', async () => {
    const job = await transcribe(t, testModel('audio/jfk.wav'), {
      cropStartSeconds: '2',
      cropEndSeconds: '8',
      language: 'en',
    });
    assert.equal(job.status, 'succeeded', job.error);
    const full = (await request(`${t.base}/jobs/${job.id}/transcript?format=json-full`)).json();
    for (const s of full.segments) assert.ok(s.start >= 2 - 1e-6 && s.end <= 8 + 1e-6, `${s.start}-${s.end}`);
  });

  it('detects the language with auto and reports it', async () => {
    const job = await transcribe(t, testModel('audio/jfk.wav'), { language: 'auto' });
    assert.equal(job.status, 'succeeded', job.error);
    assert.match(job.result.language, /^[a-z]{2,3}$/);
  });

  it('refuses a language whisper does not know with 422 naming the field', async () => {
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'xx', diarizationEnabled: 'false' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
    );
    assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, /^language:/);
  });

  it('fails a file that is not media with a sentence a person understands', async () => {
    const fake = path.join(media, 'notes.mp3');
    await writeFile(fake, 'These are meeting notes, not audio.\n'.repeat(50));
    const job = await transcribe(t, fake);
    assert.equal(job.status, 'failed');
    assert.match(job.error, /not a media file/);
    assertErrorBody(await request(`${t.base}/jobs/${job.id}/transcript`), 409, 'JOB_NOT_COMPLETED');
  });

  describe('with a long input', () => {
    let long: string;
    before(async () => {
      long = path.join(media, 'long.wav');
      await run('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-stream_loop',
        String(LONG_REPEATS),
        '-i',
        testModel('audio/alice-sample-16k.wav'),
        '-c:a',
        'pcm_s16le',
        long,
      ]);
    });

    it('cancels while transcribing, ends the engine, and the next job runs on a fresh engine', async () => {
      const res = await uploadMultipart(
        `${t.base}/stt/jobs`,
        { diarizationEnabled: 'false', language: 'en' },
        { source: long, filename: 'long.wav' },
      );
      const id = res.json().id;
      await waitForJob(t.base, id, (j) => j.phase === 'transcribing' || isTerminal(j), 60_000);
      const pids = t.server.engine.pids;
      const cancelled = await request(`${t.base}/jobs/${id}/cancel`, { method: 'POST' });
      assert.equal(cancelled.json().status, 'cancelled');
      await waitFor(
        'the engine to end',
        async () => t.server.engine.pids.filter((p) => pids.includes(p)),
        (left) => left.length === 0,
        5000,
      );
      const next = await transcribe(t, testModel('audio/jfk.wav'), { language: 'en' });
      assert.equal(next.status, 'succeeded', next.error);
    });

    it('fails the job with a readable error when the engine is killed mid-transcription', async () => {
      const res = await uploadMultipart(
        `${t.base}/stt/jobs`,
        { diarizationEnabled: 'false', language: 'en' },
        { source: long, filename: 'long.wav' },
      );
      const id = res.json().id;
      await waitForJob(t.base, id, (j) => j.phase === 'transcribing', 60_000);
      for (const pid of t.server.engine.pids) process.kill(pid, 'SIGKILL');
      const failed = await waitForJob(t.base, id, isTerminal);
      assert.equal(failed.status, 'failed');
      assert.match(failed.error, /speech engine stopped unexpectedly/);
      const next = await transcribe(t, testModel('audio/jfk.wav'), { language: 'en' });
      assert.equal(next.status, 'succeeded', next.error);
    });
  });
});
