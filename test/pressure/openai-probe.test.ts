/**
 * Outside probe of the OpenAI door: careless and hostile requests the earlier probes did not send (wrong
 * types, duplicate keys, truncated and mislabelled bodies, path-like names, clients that vanish mid-stream),
 * through the openai SDK where it can send them and raw HTTP where it cannot. Each gets a 4xx in OpenAI's
 * error shape (or a 2xx), never a 5xx or silence, and nothing is written outside the data directory.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { request, waitForJob, isTerminal, type RawResponse } from '../helpers/server';
import { uploadMultipart } from '../helpers/multipart';
import { testModel } from '../helpers/test-models';
import { wavHeader } from '../helpers/wav';
import { baitPaths, probeEnds, useProbeServer } from './probe-kit';
import { installSyntheticWhisper } from './support';

describe('outside probe: the OpenAI door', () => {
  const probe = useProbeServer(
    'openai',
    () => ({}),
    async (t) => {
      await installSyntheticWhisper(t.dataDir);
    },
  );
  const { tally } = probe;
  let client: OpenAI;
  before(() => {
    client = new OpenAI({ baseURL: probe.t.base, apiKey: 'unused', maxRetries: 0, timeout: 30_000 });
  });

  /** A raw request whose answer must be `status` with OpenAI's error body (param when named). */
  async function refused(
    what: string,
    send: () => Promise<RawResponse>,
    status: number | number[],
    param?: string | null,
  ): Promise<void> {
    const res = await tally.probe(what, send, (r) => r.status);
    const allowed = Array.isArray(status) ? status : [status];
    assert.ok(allowed.includes(res.status), `${what}: ${res.status} ${res.body.toString().slice(0, 300)}`);
    const body = res.json();
    assert.equal(typeof body.error?.message, 'string', `${what}: ${res.body.toString().slice(0, 200)}`);
    assert.equal(body.error.type, res.status === 404 ? 'not_found_error' : 'invalid_request_error', what);
    if (param !== undefined) assert.equal(body.error.param, param, `${what}: ${body.error.message}`);
  }

  const speech =
    (body: string, contentType = 'application/json') =>
    () =>
      request(`${probe.t.base}/audio/speech`, { method: 'POST', headers: { 'Content-Type': contentType }, body });

  it('refuses speech bodies of the wrong shape with 4xx naming the field', async () => {
    const cases: Array<[string, unknown, string | null | undefined]> = [
      ['input a number', { model: 'tts-1', voice: 'alloy', input: 42 }, 'input'],
      ['input an array', { model: 'tts-1', voice: 'alloy', input: ['a', 'b'] }, 'input'],
      ['input null', { model: 'tts-1', voice: 'alloy', input: null }, 'input'],
      ['input empty', { model: 'tts-1', voice: 'alloy', input: '' }, 'input'],
      ['input only a NUL', { model: 'tts-1', voice: 'alloy', input: '\u0000' }, 'input'],
      ['voice a number', { model: 'tts-1', voice: 7, input: 'Hello.' }, 'voice'],
      ['voice a path', { model: 'tts-1', voice: '../../../etc/passwd', input: 'Hello.' }, undefined],
      ['voice a device name', { model: 'tts-1', voice: 'CON', input: 'Hello.' }, undefined],
      [
        'response_format unknown',
        { model: 'tts-1', voice: 'alloy', input: 'Hello.', response_format: 'exe' },
        'response_format',
      ],
      ['speed a word', { model: 'tts-1', voice: 'alloy', input: 'Hello.', speed: 'fast' }, 'speed'],
      ['speed zero', { model: 'tts-1', voice: 'alloy', input: 'Hello.', speed: 0 }, 'speed'],
      ['speed huge', { model: 'tts-1', voice: 'alloy', input: 'Hello.', speed: 1e308 }, 'speed'],
      [
        'stream_format unknown',
        { model: 'tts-1', voice: 'alloy', input: 'Hello.', stream_format: 'websocket' },
        undefined,
      ],
      ['model an object', { model: { id: 'tts-1' }, voice: 'alloy', input: 'Hello.' }, undefined],
      ['instructions a number', { model: 'tts-1', voice: 'alloy', input: 'Hello.', instructions: 5 }, undefined],
    ];
    for (const [what, body, param] of cases)
      await refused(`speech: ${what}`, speech(JSON.stringify(body)), [400, 404, 422], param);
  });

  it('refuses bodies that are not one well-formed JSON object', async () => {
    await refused('speech: truncated JSON', speech('{"model":"tts-1","voice":"alloy","input":"Hel'), [400, 422]);
    await refused('speech: JSON array', speech('[]'), [400, 422]);
    await refused('speech: JSON null', speech('null'), [400, 422]);
    await refused('speech: text/plain', speech('Hello there', 'text/plain'), [400, 415, 422]);
    await refused(
      'speech: form-encoded',
      speech('model=tts-1&voice=alloy&input=Hi', 'application/x-www-form-urlencoded'),
      [400, 415, 422],
    );
    await refused('speech: multipart without boundary', speech('--x\r\n', 'multipart/form-data'), [400, 415, 422]);
    await refused(
      'speech: __proto__ key',
      speech('{"__proto__":{"admin":true},"model":"tts-1","voice":"alloy","input":"Hi"}'),
      [400, 422],
    );
    await refused(
      'speech: lone surrogate only',
      speech('{"model":"tts-1","voice":"alloy","input":"\\ud800"}'),
      [400, 422],
      'input',
    );
  });

  it('takes the last of duplicate keys, as JSON.parse does, and speaks', async () => {
    const res = await tally.probe(
      'speech: duplicate input keys',
      () => speech('{"model":"tts-1","voice":"alloy","input":5,"input":"Duplicate keys.","response_format":"wav"}')(),
      (r) => r.status,
    );
    assert.equal(res.status, 200, res.body.toString().slice(0, 200));
  });

  it('refuses transcription requests of the wrong shape without a 5xx', async () => {
    const jfk = testModel('audio/jfk.wav');
    const upload =
      (fields: Record<string, string>, file?: { filename: string; source?: string | Buffer; fieldName?: string }) =>
      () =>
        uploadMultipart(
          `${probe.t.base}/audio/transcriptions`,
          { model: 'whisper-1', ...fields },
          file ? { source: file.source ?? jfk, filename: file.filename, fieldName: file.fieldName } : undefined,
        );
    await refused('transcriptions: no file', upload({}), [400, 422], 'file');
    await refused('transcriptions: file as a text field', upload({ file: 'jfk.wav' }), [400, 422], 'file');
    await refused(
      'transcriptions: empty file',
      upload({}, { filename: 'empty.wav', source: Buffer.alloc(0) }),
      [400, 422],
    );
    await refused(
      'transcriptions: response_format docx',
      upload({ response_format: 'docx' }, { filename: 'a.wav' }),
      [400, 422],
      'response_format',
    );
    await refused(
      'transcriptions: granularity nanosecond',
      upload({ 'timestamp_granularities[]': 'nanosecond', response_format: 'verbose_json' }, { filename: 'a.wav' }),
      [400, 422],
    );
    await refused(
      'transcriptions: language a path',
      upload({ language: '../../etc' }, { filename: 'a.wav' }),
      [400, 409, 422],
      'language',
    );
    await refused(
      'transcriptions: temperature a word',
      upload({ temperature: 'warm' }, { filename: 'a.wav' }),
      [400, 422],
      'temperature',
    );
    await refused(
      'transcriptions: temperature NaN',
      upload({ temperature: 'NaN' }, { filename: 'a.wav' }),
      [400, 422],
      'temperature',
    );
    await refused(
      'transcriptions: JSON instead of multipart',
      () =>
        request(`${probe.t.base}/audio/transcriptions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"file":"jfk.wav","model":"whisper-1"}',
        }),
      [400, 415, 422],
    );
    await refused(
      'translations: garbage multipart',
      () =>
        request(`${probe.t.base}/audio/translations`, {
          method: 'POST',
          headers: { 'Content-Type': 'multipart/form-data; boundary=zz' },
          body: '--zz\r\nContent-Disposition: form-data; name="file"\r\n\r\nunterminated',
        }),
      [400, 422],
    );
  });

  it('stores a file named like a path under its own name and transcribes it', async () => {
    const { secret } = baitPaths(probe.box);
    const halfSecond = Buffer.concat([wavHeader(16_000), Buffer.alloc(16_000)]);
    for (const filename of [secret, '../../../outside/con.wav']) {
      const res = await tally.probe(
        `transcriptions: filename ${filename.slice(-30)}`,
        () =>
          uploadMultipart(
            `${probe.t.base}/audio/transcriptions`,
            { model: 'whisper-1', language: 'en' },
            { source: halfSecond, filename },
          ),
        (r) => r.status,
      );
      assert.ok(res.status === 200, `${filename}: ${res.status} ${res.body.toString().slice(0, 200)}`);
    }
  });

  it("answers model ids that look like paths or carry NUL with 404 in OpenAI's shape", async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%00', 'x'.repeat(5000), '%F0%9F%98%80', 'tts-1%20']) {
      await refused(`models: GET ${id.slice(0, 30)}`, () => request(`${probe.t.base}/models/${id}`), 404);
      const head = await tally.probe(
        `models: HEAD ${id.slice(0, 30)}`,
        () => request(`${probe.t.base}/models/${id}`, { method: 'HEAD' }),
        (r) => r.status,
      );
      assert.equal(head.status, 404);
    }
  });

  it('cancels the job of a client that vanishes mid-stream, and keeps serving', async () => {
    const controller = new AbortController();
    const response = await tally.probe(
      'speech: stream then vanish',
      () =>
        client.audio.speech.create(
          { model: 'tts-1', voice: 'alloy', input: 'A client that leaves early. '.repeat(100), response_format: 'mp3' },
          { signal: controller.signal },
        ),
      () => 200,
    );
    const jobId = response.headers.get('x-speech-studio-job-id')!;
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    const job = await waitForJob(probe.t.base, jobId, isTerminal, 30_000);
    assert.ok(['cancelled', 'succeeded'].includes(job.status), job.status);
    const models = await tally.probe(
      'models: after the vanished client',
      () => client.models.list(),
      () => 200,
    );
    assert.ok(models.data.length > 0);
  });

  probeEnds(probe, 'answered everything, and wrote nothing outside the data directory');
});
