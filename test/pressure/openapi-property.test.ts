/**
 * A property check driven by the server's own OpenAPI document: for every operation GET /v1/openapi.json
 * lists, requests are generated from its schemas (valid values and mutations of them, JSON and multipart,
 * path, query and header parameters) and sent to a real server with the real engine. Every answer must be a
 * status the document lists for that operation or a generic refusal of docs/decisions.md, with the error body
 * of its door; never a 5xx, never a hang; and nothing may be written outside the data directory.
 * Fixed seed (FUZZ_SEED explores others); FUZZ_RUNS sets the requests per operation.
 * Not covered here because plain HTTP cannot call them: the Realtime WebSocket upgrade and MCP's GET stream,
 * which the document does not list as operations.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { after, before, describe, it } from 'node:test';
import { ERROR_STATUS, type ErrorCode } from '../../src/contract/errors';
import { startTestServer, type TestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import {
  asText,
  jsonBody,
  oddString,
  resolve,
  useHints,
  validNamed,
  validValue,
  wrongValue,
  type Schema,
} from './openapi-arbitraries';
import { closeAgent, multipartBody, rawPathSegment, send as sendWithin, type Answer, type Part } from './fuzz-client';
import { installSyntheticWhisper, listTree } from './support';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
/** Synchronous doors (OpenAI speech and transcription) do real engine work; the rest answer at once. */
const DEADLINE_MS = 30_000;
/** Refusals any route may give (docs/decisions.md): auth, origin/host, no route, wrong method, too large, media type, invalid, full. */
const GENERIC_STATUSES = [401, 403, 404, 405, 413, 415, 422, 429];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Percent-encodes every byte of the UTF-8 form (lone surrogates included, which encodeURIComponent refuses). */
const percentEncode = (value: string): string =>
  Array.from(Buffer.from(value, 'utf8'))
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

interface Operation {
  method: string;
  template: string;
  operation: Schema;
  documented: number[];
  openAiShape: boolean;
}

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  what: string;
}

describe(`the OpenAPI document's operations hold their contract (seed ${SEED}, ${RUNS} requests each)`, () => {
  let t: TestServer;
  let scratch: string;
  let document: Schema;
  let operations: Operation[] = [];
  let knownIds: string[] = [];
  let beforeTree: string[] = [];
  let beforeProjectRoot: string[] = [];
  const savedTmp = process.env.TMPDIR;
  const sent: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  let mediaParts: Array<{ filename: string; contentType: string; data: Buffer }> = [];

  before(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'speech-openapi-property-'));
    // Temporary files of the server and its engine go inside the scratch folder, where the check sees them.
    await mkdir(path.join(scratch, 'tmp'));
    process.env.TMPDIR = path.join(scratch, 'tmp');
    const dataDir = path.join(scratch, 'data');
    await mkdir(dataDir);
    beforeTree = await listTree(scratch);
    beforeProjectRoot = (await readdir(path.resolve(__dirname, '..', '..'))).sort();
    t = await startTestServer({ dataDir, queueCapacity: 10_000 });
    await installSyntheticWhisper(dataDir);
    const wav = await readFile(testModel('audio/jfk.wav'));
    mediaParts = [
      { filename: 'jfk.wav', contentType: 'audio/wav', data: wav.subarray(0, 32_044) },
      {
        filename: 'jfk.mp3',
        contentType: 'audio/mpeg',
        data: (await readFile(testModel('audio/jfk.mp3'))).subarray(0, 16_000),
      },
      { filename: 'garbage.wav', contentType: 'audio/wav', data: Buffer.from('RIFF\u0000\u0000garbage'.repeat(50)) },
      { filename: '', contentType: 'application/octet-stream', data: Buffer.alloc(0) },
      { filename: '../../escape.wav', contentType: 'video/mp4', data: wav.subarray(0, 4096) },
    ];
    const answer = await sendWithin(t.server.port, 'GET', '/v1/openapi.json', {}, undefined, DEADLINE_MS);
    assert.equal(answer.status, 200);
    document = JSON.parse(answer.body.toString('utf8'));
    operations = listOperations(document);
    knownIds = await seedIds();
    const voices =
      JSON.parse(
        (
          await sendWithin(t.server.port, 'GET', '/v1/voices?languageCode=en&limit=5', {}, undefined, DEADLINE_MS)
        ).body.toString(),
      ).items ?? [];
    const voiceIds = voices.map((voice: { id: string }) => voice.id);
    useHints({
      voiceId: voiceIds,
      voice: ['alloy', 'nova', ...voiceIds],
      model: ['tts-1', 'whisper-1', 'espeak-ng'],
      text: ['Hello world.', 'One, two, three.'],
      input: ['Hello world.', 'Good morning.'],
      language: ['en', 'auto'],
      languageCode: ['en', 'en-US'],
      format: ['txt', 'srt', 'vtt', 'json-simple', 'json-full'],
      entries: [[{ text: 'Koa', say: 'koh ah' }], []],
      speakerCountMode: ['auto'],
      response_format: ['wav', 'mp3', 'json', 'text', 'srt', 'verbose_json'],
    });
  });

  after(async () => {
    closeAgent();
    await t?.dispose();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    await rm(scratch, { recursive: true, force: true });
  });

  function listOperations(doc: Schema): Operation[] {
    const found: Operation[] = [];
    for (const [template, item] of Object.entries<Schema>(doc.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const responses = Object.entries<Schema>(operation.responses ?? {});
        found.push({
          method: method.toUpperCase(),
          template,
          operation,
          documented: responses.map(([status]) => Number(status)).filter(Number.isInteger),
          openAiShape: responses.some(([, response]) => JSON.stringify(response).includes('OpenAi')),
        });
      }
    }
    return found;
  }

  /** Ids the path parameters draw from: a cancelled TTS job, a cancelled STT job, and the installed models. */
  async function seedIds(): Promise<string[]> {
    const ids: string[] = [];
    const tts = await sendWithin(
      t.server.port,
      'POST',
      '/v1/tts/jobs',
      { 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ text: 'Hello there.' })),
      DEADLINE_MS,
    );
    if (tts.status === 200) ids.push(JSON.parse(tts.body.toString()).id);
    const upload = multipartBody(
      [{ name: 'file', filename: 'jfk.wav', contentType: 'audio/wav', data: mediaParts[0].data }],
      'seedboundary',
    );
    const stt = await sendWithin(
      t.server.port,
      'POST',
      '/v1/stt/jobs',
      { 'content-type': 'multipart/form-data; boundary=seedboundary' },
      upload,
      DEADLINE_MS,
    );
    if (stt.status === 200) ids.push(JSON.parse(stt.body.toString()).id);
    for (const id of ids) await sendWithin(t.server.port, 'POST', `/v1/jobs/${id}/cancel`, {}, undefined, DEADLINE_MS);
    const models = await sendWithin(t.server.port, 'GET', '/v1/models', {}, undefined, DEADLINE_MS);
    for (const model of (JSON.parse(models.body.toString()).data ?? []).slice(0, 3)) ids.push(String(model.id));
    return ids;
  }

  function parameterValue(parameter: Schema): fc.Arbitrary<string | undefined> {
    const schema = resolve(document, parameter.schema);
    const valid =
      parameter.in === 'path' && knownIds.length > 0
        ? fc.oneof(fc.constantFrom(...knownIds), fc.uuid(), validValue(document, schema).map(asText))
        : validNamed(document, parameter.name, schema).map(asText);
    // Optional parameters are mostly absent or valid, so that a request often has none wrong.
    return fc.oneof(
      { weight: 4, arbitrary: valid },
      { weight: parameter.required ? 0 : 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: wrongValue(document, schema).map(asText) },
      { weight: 1, arbitrary: oddString },
    );
  }

  function requestFor(op: Operation): fc.Arbitrary<Request> {
    const parameters = (op.operation.parameters ?? []).map((p: Schema) => resolve(document, p));
    const values = fc.tuple(...parameters.map((p: Schema) => parameterValue(p)));
    const content: Record<string, Schema> = resolve(document, op.operation.requestBody).content ?? {};
    const body: fc.Arbitrary<{ contentType?: string; data?: Buffer; note: string }> = content['multipart/form-data']
      ? multipartRequest(resolve(document, content['multipart/form-data'].schema))
      : content['application/json']
        ? jsonRequest(resolve(document, content['application/json'].schema))
        : fc.constant({ note: '' });
    return fc.tuple(values, body, fc.boolean()).map(([paramValues, { contentType, data, note }, mcpAccept]) => {
      let target = op.template;
      const query: string[] = [];
      const headers: Record<string, string> = {};
      parameters.forEach((parameter: Schema, index: number) => {
        const value = (paramValues as Array<string | undefined>)[index];
        if (value === undefined) return;
        if (parameter.in === 'path') target = target.replace(`{${parameter.name}}`, rawPathSegment(value) || '%20');
        else if (parameter.in === 'query') query.push(`${percentEncode(parameter.name)}=${percentEncode(value)}`);
        else if (parameter.in === 'header' && /^[\t\x20-\x7e]*$/.test(value)) headers[parameter.name] = value;
      });
      if (contentType) headers['content-type'] = contentType;
      // The streamable MCP transport asks clients to accept both JSON and SSE; half the requests do.
      if (op.template === '/mcp' && mcpAccept) headers.accept = 'application/json, text/event-stream';
      const fullPath = `/v1${target}${query.length ? `?${query.join('&')}` : ''}`;
      const what = `${op.method} ${fullPath.slice(0, 200)} ${note}`.slice(0, 600);
      // fast-check prints a counterexample with this, not with its body's bytes.
      return {
        method: op.method,
        path: fullPath,
        headers,
        body: data,
        what,
        [fc.toStringMethod]: () => JSON.stringify(what),
      };
    });
  }

  function jsonRequest(schema: Schema): fc.Arbitrary<{ contentType?: string; data?: Buffer; note: string }> {
    const mcpMessages = fc.constantFrom(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no-such-tool","arguments":{}}}',
      '[{"jsonrpc":"2.0","method":"notifications/initialized"}]',
      '{"jsonrpc":"1.0","id":null}',
    );
    return fc.oneof(
      {
        weight: 6,
        arbitrary: jsonBody(document, schema).map(({ mutation, text }) => ({
          contentType: 'application/json',
          data: Buffer.from(text),
          note: `${mutation} ${text.slice(0, 300)}`,
        })),
      },
      {
        weight: 1,
        arbitrary: mcpMessages.map((text) => ({
          contentType: 'application/json',
          data: Buffer.from(text),
          note: text,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            'text/plain',
            'application/json; charset=latin1',
            'multipart/form-data; boundary=x',
            'application/x-www-form-urlencoded',
          )
          .chain((contentType) =>
            fc
              .constantFrom('{"a":', '{}', 'model=tts-1&input=hi', '\u0000\u0001')
              .map((text) => ({ contentType, data: Buffer.from(text), note: `${contentType} ${text}` })),
          ),
      },
    );
  }

  function multipartRequest(schema: Schema): fc.Arbitrary<{ contentType?: string; data?: Buffer; note: string }> {
    const properties = Object.entries<Schema>(schema.properties ?? {});
    const required = new Set<string>(schema.required ?? []);
    const partFor = ([name, property]: [string, Schema]): fc.Arbitrary<Part | undefined> => {
      const resolved = resolve(document, property);
      const present = required.has(name)
        ? fc.constantFrom(true, true, true, true, false)
        : fc.constantFrom(true, false, false);
      let part: fc.Arbitrary<Part>;
      if (resolved.format === 'binary' && /text/.test(String(resolved.contentMediaType))) {
        part = fc
          .tuple(
            fc.constantFrom('script.txt', 'cues.srt', 'cues.vtt', 'book.md', 'script.exe', ''),
            fc.constantFrom(
              'And so, my fellow Americans.',
              '1\n00:00:00,000 --> 00:00:02,000\nAnd so\n',
              'WEBVTT\n\n',
              '',
              '\u0000\uffff'.repeat(10),
            ),
          )
          .map(([filename, text]) => ({ name, filename, contentType: 'text/plain', data: Buffer.from(text) }));
      } else if (resolved.format === 'binary') {
        // Mostly real media, so that the success path is reached; the rest are garbage, empty or oddly named.
        part = fc
          .oneof(
            { weight: 3, arbitrary: fc.constantFrom(...mediaParts.slice(0, 2)) },
            { weight: 2, arbitrary: fc.constantFrom(...mediaParts) },
          )
          .map((media) => ({ name, ...media }));
      } else {
        part = fc
          .oneof(
            { weight: 6, arbitrary: validNamed(document, name, resolved) },
            { weight: 1, arbitrary: wrongValue(document, resolved) },
            { weight: 1, arbitrary: oddString },
          )
          .map((value) => ({ name, data: Buffer.from(asText(value)) }));
      }
      return present.chain((yes) => (yes ? part : fc.constant(undefined)));
    };
    const extra = fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Part>(
          { name: 'unknown', data: Buffer.from('1') },
          { name: 'file', filename: 'second.wav', contentType: 'audio/wav', data: Buffer.from('RIFF') },
          { name: 'prompt', data: Buffer.from('x'.repeat(5000)) },
        ),
      },
    );
    const closed = fc.constantFrom(true, true, true, true, false);
    return fc
      .tuple(
        fc.tuple(...properties.map(partFor)),
        extra,
        fc.boolean(),
        fc.constantFrom('b0undary', 'x'.repeat(70), '---a b'),
        closed,
      )
      .map(([parts, extraPart, fileLast, boundary, closed]) => {
        let list = parts.filter((p): p is Part => p !== undefined);
        if (extraPart) list.push(extraPart);
        // Fields after the file part must be judged like fields before it (issue 24, item 6).
        if (fileLast)
          list = [...list.filter((p) => p.filename === undefined), ...list.filter((p) => p.filename !== undefined)];
        else list = [...list.filter((p) => p.filename !== undefined), ...list.filter((p) => p.filename === undefined)];
        const data = multipartBody(list, boundary, closed);
        return {
          contentType: `multipart/form-data; boundary=${boundary.includes(' ') ? `"${boundary}"` : boundary}`,
          data,
          note:
            list
              .map(
                (p) =>
                  `${p.name}${p.filename !== undefined ? `(${p.filename})` : `=${p.data.toString('utf8').slice(0, 40)}`}`,
              )
              .join(' ') + (closed ? '' : ' unclosed'),
        };
      });
  }

  function checkErrorBody(op: Operation, answer: Answer, what: string): void {
    const text = answer.body.toString('utf8');
    assert.match(
      String(answer.headers['content-type']),
      /json/,
      `${what}: error ${answer.status} without a JSON body: ${text.slice(0, 200)}`,
    );
    const body = JSON.parse(text);
    if (op.template === '/mcp' && body?.jsonrpc === '2.0') {
      assert.equal(typeof body.error?.message, 'string', `${what}: a JSON-RPC error without a message`);
      return;
    }
    assert.equal(typeof body?.error?.message, 'string', `${what}: no error.message: ${text.slice(0, 200)}`);
    assert.ok(body.error.message.length > 0, `${what}: an empty error message`);
    assert.doesNotMatch(body.error.message, /\n\s+at /, `${what}: a stack trace in the message`);
    if (op.openAiShape) {
      assert.equal(typeof body.error.type, 'string', `${what}: OpenAI error without type`);
      assert.ok(
        'param' in body.error && 'code' in body.error,
        `${what}: OpenAI error without param or code: ${text.slice(0, 200)}`,
      );
    } else {
      const code = body.error.code as ErrorCode;
      assert.equal(ERROR_STATUS[code], answer.status, `${what}: code ${code} does not go with status ${answer.status}`);
    }
  }

  async function cancelIfCreated(op: Operation, answer: Answer): Promise<void> {
    if (answer.status !== 200 || op.method !== 'POST' || !/^\/(tts|stt|align)\/jobs$/.test(op.template)) return;
    const job = JSON.parse(answer.body.toString('utf8'));
    const cancel = await sendWithin(t.server.port, 'POST', `/v1/jobs/${job.id}/cancel`, {}, undefined, DEADLINE_MS);
    assert.ok([200, 422].includes(cancel.status), `cancel of ${job.id}: ${cancel.status}`);
  }

  it('lists the operations of every door', () => {
    const templates = new Set(operations.map((op) => op.template));
    for (const expected of [
      '/tts/jobs',
      '/stt/jobs',
      '/align/jobs',
      '/jobs/{id}/transcript',
      '/audio/speech',
      '/audio/transcriptions',
      '/models/{id}',
      '/lexicon',
      '/mcp',
      '/voices',
    ]) {
      assert.ok(templates.has(expected), `the document lists ${expected}`);
    }
  });

  it('every operation answers generated requests with a documented status and body, never 5xx, never a hang', async (ctx) => {
    for (const op of operations) {
      const key = `${op.method} ${op.template}`;
      const allowed = new Set([...op.documented.filter((status) => status < 500), ...GENERIC_STATUSES]);
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (request) => {
          const answer = await sendWithin(
            t.server.port,
            request.method,
            request.path,
            request.headers,
            request.body,
            DEADLINE_MS,
          );
          sent[key] = (sent[key] ?? 0) + 1;
          statuses[`${key} ${answer.status}`] = (statuses[`${key} ${answer.status}`] ?? 0) + 1;
          assert.ok(
            answer.status < 500,
            `${request.what}: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`,
          );
          assert.ok(
            allowed.has(answer.status),
            `${request.what}: status ${answer.status} is not documented for ${key}: ${answer.body.toString('utf8').slice(0, 300)}`,
          );
          if (answer.status >= 400) checkErrorBody(op, answer, request.what);
          await cancelIfCreated(op, answer);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
      );
    }
    ctx.diagnostic(`answers: ${JSON.stringify(statuses)}`);
    // The generator must reach the success path of the job-creating operations, or it proves little.
    for (const key of ['POST /tts/jobs', 'POST /stt/jobs', 'GET /voices', 'GET /models']) {
      assert.ok((statuses[`${key} 200`] ?? 0) > 0, `${key} never answered 200: ${JSON.stringify(statuses)}`);
    }
  });

  it('wrote nothing outside the data directory', async () => {
    const now = (await listTree(scratch)).filter((entry) => entry !== 'data' && !entry.startsWith(`data${path.sep}`));
    assert.deepEqual(
      now,
      beforeTree.filter((entry) => entry !== 'data'),
      'files appeared beside the data directory or in the temporary folder',
    );
    assert.deepEqual(
      (await readdir(path.resolve(__dirname, '..', '..'))).sort(),
      beforeProjectRoot,
      'files appeared in the working directory',
    );
  });
});
