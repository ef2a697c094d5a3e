// Text with nothing to speak is refused at admission, before any job starts, in every door (issue 24 #4).
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { assertErrorBody, postJson, startTestServer, type TestServer } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

const SILENT_TEXTS = ['...', '😀🎉👍', '\u200b', '\u0007\u0001\u001f', ' ?! — … ', '\u200b\u200d\ufeff'];

describe('text with nothing to speak', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.dispose());

  it('POST /tts/jobs answers 422 INVALID_REQUEST naming text, and creates no job', async () => {
    const voiceId = await englishVoiceId(t.base);
    for (const text of SILENT_TEXTS) {
      const res = await postJson(`${t.base}/tts/jobs`, { voiceId, text });
      assert.match(
        assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
        /^text: has nothing to speak/,
        JSON.stringify(text),
      );
    }
    assert.deepEqual(await readdir(path.join(t.dataDir, 'jobs')).catch(() => []), []);
  });

  it('POST /audio/speech answers an OpenAI error naming input, for every response format, and creates no job', async () => {
    const client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    for (const response_format of ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const) {
      for (const input of SILENT_TEXTS) {
        await assert.rejects(
          client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format }),
          (error: any) => {
            assert.equal(error.status, 422, `${response_format} ${JSON.stringify(input)}: ${error.message}`);
            assert.equal(error.error?.param ?? error.param, 'input');
            assert.match(error.message, /input: has nothing to speak/);
            return true;
          },
        );
      }
    }
    assert.deepEqual(await readdir(path.join(t.dataDir, 'jobs')).catch(() => []), []);
  });

  it('text with a word, a digit or a symbol a voice says is still spoken', async () => {
    const voiceId = await englishVoiceId(t.base);
    for (const text of ['Hi!', '42', '😀 yes']) {
      const res = await postJson(`${t.base}/tts/jobs`, { voiceId, text });
      assert.equal(res.status, 200, res.body.toString());
      await postJson(`${t.base}/jobs/${res.json().id}/cancel`, {});
    }
  });
});
