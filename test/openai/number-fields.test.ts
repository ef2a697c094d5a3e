// The OpenAI door reads number fields with the native form's rules: finite decimal numbers only (issue 24 #7).
import assert from 'node:assert/strict';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { startTestServer, type TestServer } from '../helpers/server';
import { testModelsDir } from '../helpers/test-models';

const JFK = () => path.join(testModelsDir(), 'audio', 'jfk.wav');

describe('OpenAI transcriptions: number fields', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    const dir = path.join(t.dataDir, 'models', 'whisper');
    await mkdir(dir, { recursive: true });
    await symlink(
      path.join(testModelsDir(), 'whisper', 'ggml-synthetic-random.bin'),
      path.join(dir, 'ggml-synthetic-random.bin'),
    );
  });
  after(() => t.dispose());

  for (const route of ['transcriptions', 'translations']) {
    it(`POST /audio/${route} refuses temperature Infinity, 1e999, -Infinity and 0x1 with 422 naming temperature (as the native form), and starts no job`, async () => {
      for (const temperature of ['Infinity', '1e999', '-Infinity', '0x1', 'NaN']) {
        const res = await uploadMultipart(
          `${t.base}/audio/${route}`,
          { model: 'whisper-1', temperature },
          { source: JFK(), filename: 'jfk.wav' },
        );
        assert.equal(res.status, 422, `${temperature}: ${res.body.toString()}`);
        const body = res.json();
        assert.equal(body.error.param, 'temperature', temperature);
        assert.match(body.error.message, /^temperature: must be number written in decimal/);
      }
      const jobs = await readdir(path.join(t.dataDir, 'jobs')).catch(() => []);
      assert.deepEqual(jobs, []);
    });
  }
});
