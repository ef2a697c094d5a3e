import assert from 'node:assert/strict';
import { mkdir, open, readdir, rm, symlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, request, tempDir, waitFor, useTestServer } from '../helpers/server';
import { testModelsDir } from '../helpers/test-models';

const JFK = () => path.join(testModelsDir(), 'audio', 'jfk.wav');

async function installSyntheticWhisper(dataDir: string): Promise<void> {
  const dir = path.join(dataDir, 'models', 'whisper');
  await mkdir(dir, { recursive: true });
  await symlink(
    path.join(testModelsDir(), 'whisper', 'ggml-synthetic-random.bin'),
    path.join(dir, 'ggml-synthetic-random.bin'),
  );
}

/** Job folders left in the data directory (uploads of refused requests must not stay behind). */
const jobFolders = async (dataDir: string): Promise<string[]> => readdir(path.join(dataDir, 'jobs')).catch(() => []);

describe('POST /stt/jobs with no speech-to-text model installed', () => {
  const t = useTestServer();

  it('answers 409 MODEL_NOT_INSTALLED and keeps nothing of the upload', async () => {
    const res = await uploadMultipart(`${t.base}/stt/jobs`, {}, { source: JFK(), filename: 'jfk.wav' });
    assert.match(assertErrorBody(res, 409, 'MODEL_NOT_INSTALLED').error.message, /whisper/);
    assert.deepEqual(await jobFolders(t.dataDir), []);
  });

  it('reports sttInstalled false, then true once a ggml file is dropped into models/whisper', async () => {
    assert.equal((await request(`${t.base}/capabilities`)).json().models.sttInstalled, false);
    await installSyntheticWhisper(t.dataDir);
    assert.equal((await request(`${t.base}/capabilities`)).json().models.sttInstalled, true);
    await rm(path.join(t.dataDir, 'models'), { recursive: true });
  });
});

describe('POST /stt/jobs upload handling', () => {
  const t = useTestServer();
  let scratch: string;
  before(async () => {
    scratch = await tempDir();
    await installSyntheticWhisper(t.dataDir);
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('streams an upload over 512 MB only until the limit, answers 413 FILE_TOO_LARGE and removes the partial file', async () => {
    const sparse = path.join(scratch, 'huge.wav');
    const handle = await open(sparse, 'w');
    await handle.truncate(512 * 1024 * 1024 + 1);
    await handle.close();
    const res = await uploadMultipart(`${t.base}/stt/jobs`, {}, { source: sparse, filename: 'huge.wav' });
    assertErrorBody(res, 413, 'FILE_TOO_LARGE');
    await waitFor(
      'the partial upload to be removed',
      () => jobFolders(t.dataDir),
      (f) => f.length === 0,
      5000,
    );
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const res = await request(`${t.base}/stt/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(600 * 1024 * 1024) },
      body: '',
    }).catch((error) => ({ status: 0, error }));
    if (res.status !== 0) assertErrorBody(res as never, 413, 'FILE_TOO_LARGE');
    assert.deepEqual(await jobFolders(t.dataDir), []);
  });

  it('answers 422 for a body that is not multipart, has no file, an empty file, or a second file', async () => {
    const notMultipart = await request(`${t.base}/stt/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.match(assertErrorBody(notMultipart, 422, 'INVALID_REQUEST').error.message, /multipart/);
    const noBoundary = await request(`${t.base}/stt/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data' },
      body: 'x',
    });
    assertErrorBody(noBoundary, 422, 'INVALID_REQUEST');
    const noFile = await uploadMultipart(`${t.base}/stt/jobs`, { language: 'en' });
    assert.match(assertErrorBody(noFile, 422, 'INVALID_REQUEST').error.message, /^file: is required/);
    const empty = await uploadMultipart(`${t.base}/stt/jobs`, {}, { source: Buffer.alloc(0), filename: 'a.wav' });
    assert.match(assertErrorBody(empty, 422, 'INVALID_REQUEST').error.message, /^file: is empty/);
    const wrongName = await uploadMultipart(
      `${t.base}/stt/jobs`,
      {},
      { source: Buffer.from('x'), filename: 'a.wav', fieldName: 'media' },
    );
    assertErrorBody(wrongName, 422, 'INVALID_REQUEST');
    assert.deepEqual(await jobFolders(t.dataDir), []);
  });

  it('says the media needs a filename when "file" comes as a plain field, short or long', async () => {
    for (const content of ['RIFF....', 'x'.repeat(4096)]) {
      const body = `--b\r\nContent-Disposition: form-data; name="file"\r\n\r\n${content}\r\n--b--\r\n`;
      const res = await request(`${t.base}/stt/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
        body,
      });
      assert.match(
        assertErrorBody(res, 422, 'INVALID_REQUEST').error.message,
        /^file: must be sent as a file, with a filename/,
      );
    }
    assert.deepEqual(await jobFolders(t.dataDir), []);
  });

  it('validates every form field and combination with 422 naming the field', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ cropStartSeconds: '-1' }, /^cropStartSeconds: must be at least 0/],
      [{ cropEndSeconds: '0' }, /^cropEndSeconds: must be greater than 0/],
      [{ cropStartSeconds: '5', cropEndSeconds: '2' }, /^cropEndSeconds: must be greater than cropStartSeconds/],
      [{ speakerCountMode: 'exact' }, /^speakerCount: is required when speakerCountMode is exact/],
      [{ speakerCount: '2' }, /^speakerCount: is only allowed/],
      [{ speakerCountMode: 'exact', speakerCount: '33' }, /^speakerCount: must be from 1 to 32/],
      [{ speakerCountMode: 'some' }, /^speakerCountMode: must be one of/],
      [{ punctuation: 'maybe' }, /^punctuation: must be boolean/],
      [{ language: '../../etc' }, /^language: must be a language code/],
      [{ colour: 'blue' }, /^colour: is not a known field/],
    ];
    for (const [fields, message] of cases) {
      const res = await uploadMultipart(
        `${t.base}/stt/jobs`,
        { diarizationEnabled: 'false', ...fields },
        { source: JFK(), filename: 'jfk.wav' },
      );
      assert.match(assertErrorBody(res, 422, 'INVALID_REQUEST').error.message, message, JSON.stringify(fields));
    }
    assert.deepEqual(await jobFolders(t.dataDir), []);
  });

  it('answers 409 MODEL_NOT_INSTALLED naming diarization when it is asked for explicitly without its models', async () => {
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { diarizationEnabled: 'true' },
      { source: JFK(), filename: 'jfk.wav' },
    );
    assert.match(assertErrorBody(res, 409, 'MODEL_NOT_INSTALLED').error.message, /diarization/i);
  });

  it('answers a multipart body cut off mid-way with 422, not a hang, and keeps nothing', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(t.server.port, '127.0.0.1', () => {
        const head = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF....';
        socket.write(
          `POST /v1/stt/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n` +
            `${head.length.toString(16)}\r\n${head}\r\n0\r\n\r\n`,
        );
      });
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('error', reject);
      setTimeout(() => {
        resolve(Buffer.concat(chunks).toString());
        socket.destroy();
      }, 5000);
    });
    assert.match(answer, /^HTTP\/1\.1 422/);
    assert.match(answer, /"code":"INVALID_REQUEST"/);
    assert.deepEqual(await jobFolders(t.dataDir), []);
  });

  it("stores the upload under its own name, never the client's, and creates a queued job", async () => {
    const res = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: JFK(), filename: '../../escape.wav' },
    );
    assert.equal(res.status, 200, res.body.toString());
    const job = res.json();
    assert.equal(job.kind, 'stt');
    assert.equal(job.name, 'escape.wav');
    assert.ok(['queued', 'loading_model', 'processing', 'succeeded', 'failed'].includes(job.status));
    const outside = await readdir(path.dirname(t.dataDir));
    assert.ok(!outside.includes('escape.wav'));
    await request(`${t.base}/jobs/${job.id}/cancel`, { method: 'POST' });
  });
});
