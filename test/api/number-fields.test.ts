// Number fields sent as text (multipart parts, query parameters) take decimal numbers only (issue 12 #12).
import assert from 'node:assert/strict';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, request, useTestServer } from '../helpers/server';
import { testModelsDir } from '../helpers/test-models';

const JFK = () => path.join(testModelsDir(), 'audio', 'jfk.wav');

describe('number fields sent as text', () => {
  const t = useTestServer();
  before(async () => {
    const dir = path.join(t.dataDir, 'models', 'whisper');
    await mkdir(dir, { recursive: true });
    await symlink(
      path.join(testModelsDir(), 'whisper', 'ggml-synthetic-random.bin'),
      path.join(dir, 'ggml-synthetic-random.bin'),
    );
  });

  const upload = (fields: Record<string, string>) =>
    uploadMultipart(
      `${t.base}/stt/jobs`,
      { diarizationEnabled: 'false', ...fields },
      { source: JFK(), filename: 'jfk.wav' },
    );

  it('POST /stt/jobs refuses Infinity, hexadecimal and other non-decimal numbers with 422 naming the field', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ cropEndSeconds: 'Infinity' }, /^cropEndSeconds: must be number written in decimal/],
      [{ cropStartSeconds: '-Infinity' }, /^cropStartSeconds: must be number written in decimal/],
      [{ cropEndSeconds: '1e999' }, /^cropEndSeconds: must be number written in decimal/],
      [{ cropStartSeconds: '0x10' }, /^cropStartSeconds: must be number written in decimal/],
      [{ cropStartSeconds: '0b11' }, /^cropStartSeconds: must be number written in decimal/],
      [{ cropStartSeconds: ' 2' }, /^cropStartSeconds: must be number written in decimal/],
      [{ cropStartSeconds: '' }, /^cropStartSeconds: must be number written in decimal/],
      [{ speakerCountMode: 'exact', speakerCount: '0x2' }, /^speakerCount: must be integer written in decimal/],
    ];
    for (const [fields, message] of cases) {
      const res = await upload(fields);
      assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, message, JSON.stringify(fields));
    }
  });

  it('POST /stt/jobs accepts decimal numbers, with a fraction or an exponent', async () => {
    const res = await upload({ cropStartSeconds: '.5', cropEndSeconds: '1e1' });
    assert.equal(res.status, 200, res.body.toString());
    const cancel = await request(`${t.base}/jobs/${res.json().id}/cancel`, { method: 'POST' });
    assert.ok([200, 422].includes(cancel.status), cancel.body.toString());
  });

  it('GET /voices refuses a hexadecimal page and accepts a decimal one', async () => {
    const hex = await request(`${t.base}/voices?page=0x10`);
    assert.match(
      assertErrorBody(hex, 422, 'INVALID_REQUEST').error.message,
      /^page: must be integer written in decimal/,
    );
    const decimal = await request(`${t.base}/voices?page=2&limit=1e1`);
    assert.equal(decimal.status, 200, decimal.body.toString());
    assert.deepEqual({ page: decimal.json().meta.page, limit: decimal.json().meta.limit }, { page: 2, limit: 10 });
  });
});
