// With only English-only whisper models: another language is refused at admission, and auto means English (issue 24 #15, #19).
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, isTerminal, request, useTestServer, waitForJob } from '../helpers/server';
import { linkSyntheticWhisper, testModel } from '../helpers/test-models';

const JFK = () => testModel('audio/jfk.wav');

describe('STT when every installed model is English-only', () => {
  const t = useTestServer();
  // The shared synthetic model's vocabulary has no language tokens (51 864): English-only, whatever its name says.
  before(() => linkSyntheticWhisper(t.dataDir));

  it('POST /stt/jobs with language=fr answers 409 MODEL_NOT_INSTALLED naming fr, and keeps no upload', async () => {
    for (const language of ['fr', 'de']) {
      const res = await uploadMultipart(
        `${t.base}/stt/jobs`,
        { language, diarizationEnabled: 'false' },
        { source: JFK(), filename: 'jfk.wav' },
      );
      const message = assertErrorBody(res, 409, 'MODEL_NOT_INSTALLED').error.message;
      assert.match(message, new RegExp(`language ${language}\\b`));
      assert.match(message, /English-only/);
    }
    assert.deepEqual(await readdir(path.join(t.dataDir, 'jobs')).catch(() => []), []);
  });

  it('POST /stt/jobs without a language transcribes English, and the result says why', async () => {
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { diarizationEnabled: 'false' },
      { source: JFK(), filename: 'jfk.wav' },
    );
    assert.equal(res.status, 200, res.body.toString());
    const job = await waitForJob(t.base, res.json().id, isTerminal, 120_000);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.equal(job.result.language, 'en');
    assert.match(job.result.languageNote, /English-only/);
  });

  it("the OpenAI door's transcriptions without a language transcribe English too", async () => {
    const client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    const response = await client.audio.transcriptions
      .create({ file: createReadStream(JFK()), model: 'whisper-1', response_format: 'verbose_json' })
      .withResponse();
    assert.equal(response.data.language, 'english');
    const job = (await request(`${t.base}/jobs/${response.response.headers.get('x-speech-studio-job-id')}`)).json();
    assert.equal(job.result.language, 'en');
  });
});
