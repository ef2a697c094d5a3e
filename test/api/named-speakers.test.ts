/**
 * Speakers enrolled in the data directory are named in every transcript format of a diarized native STT job
 * (json-full, json-simple, txt, SRT `[Name]`, WebVTT `<v Name>`) and in the OpenAI door's `diarized_json`,
 * on the real engine with the random-weight diarization models. Their voices mean nothing, so the engine's
 * fixed-embedding test hook makes every voice the same: the first speaker takes the enrolled name.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { FIXED_EMBEDDING_ENV } from '../../src/config/engine-environment';
import { writeKnownSpeakers } from '../../src/voices/known-speakers';
import { EMBEDDING_MODEL_NAME, installDiarizationModels } from '../helpers/diarization-models';
import { uploadMultipart } from '../helpers/multipart';
import { isTerminal, request, startTestServer, waitForJob, type TestServer } from '../helpers/server';
import { installSttModel } from '../helpers/stt-engine';
import { parseSrt, parseVtt } from '../helpers/subtitles';
import { testModel } from '../helpers/test-models';

const TWO_SPEAKERS = testModel('audio/multispeaker/1-two-speakers-en.wav');
const UNNAMED = /^Speaker \d+$/;

describe('enrolled speakers in transcripts', () => {
  let t: TestServer;
  let jobId: string;

  before(async () => {
    // The engine starts with the first job and takes this process's environment then.
    process.env[FIXED_EMBEDDING_ENV] = '1';
    t = await startTestServer();
    await installSttModel(t.dataDir);
    await installDiarizationModels(t.dataDir);
    await writeKnownSpeakers(t.dataDir, [
      {
        name: 'Ann Lee',
        embedding: [1, 0, 0, 0],
        model: EMBEDDING_MODEL_NAME,
        speechSeconds: 3,
        addedAt: new Date().toISOString(),
      },
      // Another embedding model's voice cannot be compared, so it names nobody even though it would match.
      {
        name: 'Other Model',
        embedding: [1, 0, 0, 0],
        model: 'another-embedding.onnx',
        speechSeconds: 3,
        addedAt: new Date().toISOString(),
      },
    ]);
    const created = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'true' },
      { source: TWO_SPEAKERS, filename: 'two.wav' },
    );
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 120_000);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    jobId = job.id;
  });
  after(async () => {
    await t.dispose();
    delete process.env[FIXED_EMBEDDING_ENV];
  });

  const transcript = async (format: string): Promise<string> => {
    const res = await request(`${t.base}/jobs/${jobId}/transcript?format=${format}`);
    assert.equal(res.status, 200, res.body.toString());
    return res.body.toString('utf8');
  };

  it('json-full: the first speaker carries the enrolled name, in the speaker list, segments and words', async () => {
    const full = JSON.parse(await transcript('json-full'));
    assert.ok(Array.isArray(full.speakers) && full.speakers.length > 0, JSON.stringify(full.speakers));
    assert.equal(full.speakers[0], 'Ann Lee');
    for (const speaker of full.speakers.slice(1)) assert.match(speaker, UNNAMED);
    assert.ok(!full.speakers.includes('Other Model'));
    const spoken = full.segments.filter((segment: any) => segment.speaker === 'Ann Lee');
    assert.ok(spoken.length > 0);
    for (const segment of spoken)
      for (const word of segment.words)
        if (word.speaker !== undefined) assert.ok(word.speaker === 'Ann Lee' || UNNAMED.test(word.speaker));
    const simple = JSON.parse(await transcript('json-simple'));
    assert.deepEqual(
      simple.segments.map((s: any) => s.speaker),
      full.segments.map((s: any) => s.speaker),
    );
  });

  it('SRT opens each of her cues with [Ann Lee], WebVTT puts them in <v Ann Lee>, txt with "Ann Lee: "', async () => {
    const full = JSON.parse(await transcript('json-full'));
    const srt = await transcript('srt');
    const vtt = await transcript('vtt');
    const txt = await transcript('txt');
    const srtCues = parseSrt(srt);
    assert.ok(
      srtCues.some((cue) => cue.lines[0].startsWith('[Ann Lee] ')),
      srt,
    );
    // Every cue says who speaks: the name or the diarizer's label.
    for (const cue of srtCues) assert.match(cue.lines[0], /^\[(Ann Lee|Speaker \d+)\] /);
    assert.ok(
      parseVtt(vtt).some((cue) => cue.lines[0].startsWith('<v Ann Lee>')),
      vtt,
    );
    assert.equal(
      txt.split('\n').filter((line) => line.startsWith('Ann Lee: ')).length,
      full.segments.filter((s: any) => s.speaker === 'Ann Lee').length,
    );
  });

  it('the OpenAI door names the enrolled speaker in diarized_json, the others A, B, …', async () => {
    const client = new OpenAI({ baseURL: t.base, apiKey: 'unused' });
    const result: any = await client.audio.transcriptions.create({
      file: await toFile(await readFile(TWO_SPEAKERS), path.basename(TWO_SPEAKERS)),
      model: 'gpt-4o-transcribe-diarize',
      response_format: 'diarized_json',
    } as any);
    const speakers = [...new Set(result.segments.map((s: any) => s.speaker))];
    assert.equal(speakers[0], 'Ann Lee', JSON.stringify(speakers));
    assert.deepEqual(
      speakers.slice(1),
      speakers.slice(1).map((_s, i) => String.fromCharCode(65 + i)),
    );
  });
});
