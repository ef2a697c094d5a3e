// A streamed mp3 carries no Xing header: its frame count would say 0, as it was written before the end (issue 24 #17).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { request, startTestServer, type TestServer } from '../helpers/server';

/** Whether the first mp3 frame holds a Xing or Info tag (where LAME writes it, after the side information). */
const hasXingTag = (mp3: Buffer): boolean => {
  const head = mp3.subarray(0, 4096).toString('latin1');
  return head.includes('Xing') || head.includes('Info');
};

describe('POST /audio/speech as mp3', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.dispose());

  it('streams an mp3 without a Xing header, and GET /jobs/{id}/output serves the same bytes', async () => {
    const client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    const response = await client.audio.speech
      .create({
        model: 'tts-1',
        voice: 'alloy',
        input: 'A streamed sentence, long enough for a few frames.',
        response_format: 'mp3',
      })
      .withResponse();
    const streamed = Buffer.from(await response.data.arrayBuffer());
    assert.ok(streamed.length > 1000);
    assert.equal(hasXingTag(streamed), false, 'the streamed mp3 carries a Xing header');
    const output = await request(`${t.base}/jobs/${response.response.headers.get('x-speech-studio-job-id')}/output`);
    assert.equal(output.status, 200);
    assert.equal(hasXingTag(output.body), false);
  });
});
