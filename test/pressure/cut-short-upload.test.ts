/**
 * A multipart body cut short in a later part, after the media part had already ended (found by the OpenAPI
 * property check): the upload answers 422 at once, leaves nothing in the data directory, and never hangs.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { closeAgent, multipartBody, send } from './fuzz-client';
import { listTree } from './support';

describe('a multipart body cut short after its media part', () => {
  const t = useTestServer();

  it('POST /align/jobs answers 422 naming the body and leaves no input behind', async (ctx) => {
    ctx.after(closeAgent);
    const media = (await readFile(testModel('audio/jfk.wav'))).subarray(0, 32_044);
    for (const trailing of [[], [{ name: 'language', data: Buffer.from('en') }]]) {
      const parts = [
        { name: 'file', filename: 'talk.wav', contentType: 'audio/wav', data: media },
        {
          name: 'script',
          filename: 'script.txt',
          contentType: 'text/plain',
          data: Buffer.from('And so, my fellow Americans.'),
        },
        ...trailing,
      ];
      // No closing boundary: the parser meets the end of the body inside the last part.
      const body = multipartBody(parts, 'cutshort', false);
      const answer = await send(
        t.server.port,
        'POST',
        '/v1/align/jobs',
        { 'content-type': 'multipart/form-data; boundary=cutshort' },
        body,
        10_000,
      );
      assert.equal(answer.status, 422, answer.body.toString());
      assert.equal(JSON.parse(answer.body.toString()).error.code, 'INVALID_REQUEST');
      assert.match(JSON.parse(answer.body.toString()).error.message, /body: is not a complete multipart/);
    }
    const left = (await listTree(path.join(t.dataDir, 'jobs'))).filter((entry) => entry.includes('input'));
    assert.deepEqual(left, []);
  });
});
