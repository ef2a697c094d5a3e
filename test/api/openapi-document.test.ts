// The served OpenAPI document, read as integrators' tools read it: linters, a validating check of real
// answers, and a client generated with openapi-typescript + openapi-fetch (issue 12 #13-#18).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { openApiDocumentFor, TRANSCRIPT_FORMATS } from '../../src/contract/openapi';
import { remoteOpenApiDocument } from '../../src/relay/api/openapi';
import type { Feature } from '../../src/http/entitlements';
import { uploadMultipart } from '../helpers/multipart';
import { DocumentChecker } from '../helpers/openapi-check';
import {
  PROJECT_ROOT,
  postJson,
  request,
  startTestServer,
  tempDir,
  waitForJob,
  type RawResponse,
  type TestServer,
} from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId } from '../helpers/voices';

const run = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, 'node_modules', '.bin');
const JFK = () => testModel('audio/jfk.wav');
const succeeded = (job: { status: string }) => ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(job.status);

/** Sends raw bytes and reads the answer until the server closes (for answers given before Koa sees a request). */
function rawExchange(port: number, payload: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer from the server')));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const body = Buffer.from(rest.join('\r\n\r\n'));
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body,
        json: () => JSON.parse(body.toString('utf8')),
      });
    });
  });
}

describe('the served OpenAPI document', () => {
  let t: TestServer;
  let doc: any;
  let checker: DocumentChecker;
  let dir: string;
  const switchedOff = new Set<Feature>();
  const url = (template: string, id: string = randomUUID()) => `${t.base}${template.replace('{id}', id)}`;
  /** Sends a request and checks its answer against the document; returns the answer. */
  const exchange = async (
    method: string,
    template: string,
    options: { id?: string; query?: string; headers?: Record<string, string>; body?: unknown } = {},
  ) => {
    const target = `${url(template, options.id)}${options.query ? `?${options.query}` : ''}`;
    const res =
      options.body === undefined
        ? await request(target, { method, headers: options.headers })
        : await postJson(target, options.body, options.headers);
    checker.check(method, template, res);
    return res;
  };

  before(async () => {
    t = await startTestServer({
      entitlements: { has: (feature) => !switchedOff.has(feature) },
      maxUploadBytes: 1024 * 1024,
      timeouts: { headersMs: 500 },
    });
    doc = (await request(`${t.base}/openapi.json`)).json();
    checker = new DocumentChecker(doc);
    dir = await tempDir('speech-studio-openapi-');
    await writeFile(path.join(dir, 'local.json'), JSON.stringify(doc));
    // The relay serves its document through the same function, with the address the request reached.
    await writeFile(
      path.join(dir, 'remote.json'),
      JSON.stringify(openApiDocumentFor(remoteOpenApiDocument, 'http://127.0.0.1:17880/v1')),
    );
  });
  after(async () => {
    await t.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('names the address the request reached in servers, not a fixed port', async () => {
    assert.deepEqual(
      doc.servers.map((s: { url: string }) => s.url),
      [t.base],
    );
    const byName = (
      await request(`${t.base}/openapi.json`, { headers: { Host: `localhost:${t.server.port}` } })
    ).json();
    assert.equal(byName.servers[0].url, `http://localhost:${t.server.port}/v1`);
    const noHost = await rawExchange(t.server.port, 'GET /v1/openapi.json HTTP/1.0\r\n\r\n');
    assert.equal(noHost.json().servers[0].url, `http://127.0.0.1:${t.server.port}/v1`);
  });

  it('compiles, every schema of it, with Ajv in strict mode', () => {
    assert.doesNotThrow(() => new DocumentChecker(doc));
    assert.doesNotThrow(
      () => new DocumentChecker(openApiDocumentFor(remoteOpenApiDocument, 'http://127.0.0.1:17880/v1')),
    );
  });

  it('gives every operation a summary, a description and a declared tag', () => {
    const declared = new Set(doc.tags.map((tag: { name: string }) => tag.name));
    for (const { method, path: p, operation } of checker.operations()) {
      assert.ok(operation.summary?.trim(), `${method} ${p} has no summary`);
      assert.ok(operation.description?.trim(), `${method} ${p} has no description`);
      assert.ok(
        operation.tags?.length > 0 && operation.tags.every((tag: string) => declared.has(tag)),
        `${method} ${p} has no declared tag`,
      );
    }
  });

  it('lints with Redocly CLI (recommended rules): no error, no warning, for the Local and the Remote API', async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const { stdout } = await run(path.join(BIN, 'redocly'), ['lint', 'local.json', 'remote.json', '--format=json'], {
      cwd: dir,
      env,
    }).catch((error: { stdout: string }) => error);
    // One JSON report per file, one after the other.
    const reports = JSON.parse(`[${stdout.trim().replace(/\}\s*\{/g, '},{')}]`);
    assert.equal(reports.length, 2, stdout.slice(0, 500));
    for (const report of reports) {
      assert.deepEqual(
        report.totals,
        { errors: 0, warnings: 0, ignored: 0 },
        JSON.stringify(report.problems, null, 1).slice(0, 3000),
      );
    }
  });

  it('lints with Spectral (spectral:oas): no problem of any severity, for the Local and the Remote API', async () => {
    await writeFile(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    await run(
      path.join(BIN, 'spectral'),
      ['lint', 'local.json', 'remote.json', '-r', '.spectral.yaml', '-f', 'json', '-o', 'spectral.json', '--quiet'],
      { cwd: dir },
    ).catch(() => undefined);
    const problems = JSON.parse(await readFile(path.join(dir, 'spectral.json'), 'utf8'));
    assert.deepEqual(
      problems.map(
        (p: { code: string; path: string[]; message: string }) => `${p.code} at ${p.path.join('.')}: ${p.message}`,
      ),
      [],
    );
  });

  it('declares on every operation the answers of the middleware (401, 402, 403, 408, 431, 503), and they match it', async () => {
    for (const { method, path: template } of checker.operations()) {
      assert.equal((await exchange(method, template, { headers: { Origin: 'https://evil.example' } })).status, 403);
      assert.equal(
        (await exchange(method, template, { headers: { Host: `attacker.example:${t.server.port}` } })).status,
        403,
      );
      t.server.setAuth(true);
      try {
        assert.equal((await exchange(method, template)).status, 401);
      } finally {
        t.server.setAuth(false);
      }
      switchedOff.add('app_connection');
      try {
        assert.equal((await exchange(method, template)).status, 402);
      } finally {
        switchedOff.delete('app_connection');
      }
      t.server.setEnabled(false);
      try {
        assert.equal((await exchange(method, template)).status, 503);
      } finally {
        t.server.setEnabled(true);
      }
    }
    const huge = await rawExchange(
      t.server.port,
      `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(huge.status, 431);
    checker.check('GET', '/health', huge);
    const slow = await rawExchange(t.server.port, 'GET /v1/voices HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    assert.equal(slow.status, 408);
    checker.check('GET', '/voices', slow);
  });

  it("declares every answer of a TTS job's life, and its result is the TTS result", async () => {
    for (const template of ['/health', '/capabilities', '/openapi.json', '/voices', '/speakers', '/realtime'])
      assert.equal((await exchange('GET', template)).status, 200);
    assert.equal((await exchange('GET', '/voices', { query: 'limit=0' })).status, 422);
    const voiceId = await englishVoiceId(t.base);
    assert.equal((await exchange('POST', '/tts/jobs', { body: { voiceId, text: '' } })).status, 422);
    const created = await exchange('POST', '/tts/jobs', {
      body: { voiceId, text: 'The document says what this answer holds.' },
    });
    assert.equal(created.status, 200, created.body.toString());
    const id = created.json().id;
    const job = await waitForJob(t.base, id, succeeded, 30_000);
    assert.equal(job.status, 'succeeded', job.error);
    assert.equal((await exchange('GET', '/jobs/{id}', { id })).status, 200);
    assert.ok(checker.schema('contract#/$defs/TtsResult')(job.result), 'the result is a TtsResult');
    assert.ok(!checker.schema('contract#/$defs/SttResult')(job.result), 'the result is not also an SttResult');
    assert.equal(typeof job.result.durationSeconds, 'number');
    assert.equal((await exchange('GET', '/jobs/{id}/output', { id })).status, 200);
    const narration = await exchange('POST', '/tts/jobs', {
      body: { voiceId, inputFormat: 'srt', text: '1\n00:00:00,000 --> 00:00:02,000\nA cue with its report.\n' },
    });
    const narrated = await waitForJob(t.base, narration.json().id, succeeded, 30_000);
    assert.equal(narrated.status, 'succeeded', narrated.error);
    assert.equal((await exchange('GET', '/jobs/{id}', { id: narrated.id })).status, 200);
    assert.equal(narrated.result.cues.length, 1, 'a narration reports its cues, which the document describes');
    assert.equal((await exchange('GET', '/jobs/{id}/transcript', { id })).status, 409);
    assert.equal((await exchange('POST', '/jobs/{id}/cancel', { id })).status, 422);
    for (const { method, path: template } of checker.operations().filter((o) => o.path.startsWith('/jobs/'))) {
      assert.equal((await exchange(method, template)).status, 404);
    }
  });

  it("declares every answer of an STT job's life and each transcript's media type, and its result is the STT result", async () => {
    const upload = (fields: Record<string, string>, source: string | Buffer = JFK()) =>
      uploadMultipart(
        `${t.base}/stt/jobs`,
        { diarizationEnabled: 'false', ...fields },
        { source, filename: 'jfk.wav' },
      );
    const noModel = await upload({});
    assert.equal(noModel.status, 409);
    checker.check('POST', '/stt/jobs', noModel);
    await mkdir(path.join(t.dataDir, 'models', 'whisper'), { recursive: true });
    await symlink(
      testModel('whisper/ggml-synthetic-random.bin'),
      path.join(t.dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
    );
    const tooLarge = await upload({}, Buffer.alloc(2 * 1024 * 1024));
    assert.equal(tooLarge.status, 413);
    checker.check('POST', '/stt/jobs', tooLarge);
    const invalid = await upload({ cropEndSeconds: 'Infinity' });
    assert.equal(invalid.status, 422);
    checker.check('POST', '/stt/jobs', invalid);

    const created = await upload({ language: 'en', cropEndSeconds: '3' });
    assert.equal(created.status, 200, created.body.toString());
    checker.check('POST', '/stt/jobs', created);
    const id = created.json().id;
    const job = await waitForJob(t.base, id, succeeded, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    assert.equal((await exchange('GET', '/jobs/{id}', { id })).status, 200);
    assert.ok(checker.schema('contract#/$defs/SttResult')(job.result), 'the result is an SttResult');
    assert.ok(!checker.schema('contract#/$defs/TtsResult')(job.result), 'the result is not also a TtsResult');

    const mediaTypes = new Set<string>();
    for (const format of TRANSCRIPT_FORMATS) {
      const res = await exchange('GET', '/jobs/{id}/transcript', { id, query: `format=${format}` });
      assert.equal(res.status, 200, res.body.toString());
      mediaTypes.add(String(res.headers['content-type']).split(';')[0]);
    }
    assert.deepEqual(
      [...mediaTypes].sort(),
      Object.keys(doc.paths['/jobs/{id}/transcript'].get.responses['200'].content).sort(),
    );
    assert.equal((await exchange('GET', '/jobs/{id}/transcript', { id, query: 'format=xml' })).status, 422);
    assert.equal((await exchange('GET', '/jobs/{id}/output', { id })).status, 409);
  });

  it('generates a client with openapi-typescript whose typed bodies type-check with tsc and work through openapi-fetch', async () => {
    const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
    const ast = await openapiTS(doc, {
      // openapi-typescript's documented transform for file parts: `format: binary` becomes Blob.
      transform: (schema) => ('format' in schema && schema.format === 'binary' ? blob : undefined),
      // Else it makes request fields with a default required when the body is a $ref (openapi-ts/openapi-typescript#1903).
      defaultNonNullable: false,
    });
    const client = path.join(dir, 'client');
    await mkdir(client);
    await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(client, 'node_modules'));
    await writeFile(path.join(client, 'api.ts'), astToString(ast));
    await writeFile(
      path.join(client, 'use-every-operation.ts'),
      await readFile(path.join(__dirname, 'fixtures', 'use-every-operation.ts.txt'), 'utf8'),
    );
    await writeFile(
      path.join(client, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          lib: ['es2022', 'dom'],
          types: [],
          skipLibCheck: true,
        },
        files: ['use-every-operation.ts'],
      }),
    );
    const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '-p', client], { cwd: client }).catch(
      (error: { stdout: string }) => error,
    );
    assert.equal(checked.stdout.trim(), '', 'the program using the generated client does not type-check');

    const program = await import(pathToFileURL(path.join(client, 'use-every-operation.ts')).href);
    const media = new Blob([await readFile(JFK())], { type: 'audio/wav' });
    const outcome = await program.useEveryOperation(t.base, media);
    assert.deepEqual(outcome, {
      health: 'ok',
      sttInstalled: true,
      documentServer: t.base,
      hasLicense: true,
      ttsSucceeded: true,
      durationIsNumber: true,
      audioBytes: outcome.audioBytes,
      wrongKind: 'WRONG_JOB_KIND',
      cancelFinished: 'JOB_NOT_ACTIVE',
      sttCreated: 'stt',
      sttCancelled: outcome.sttCancelled,
    });
    assert.ok(outcome.audioBytes > 44, 'the audio came back as a Blob');
    // Cancelled while it runs, or already finished: either way the typed cancel reached the job.
    assert.ok(['cancelled', 'JOB_NOT_ACTIVE'].includes(outcome.sttCancelled), outcome.sttCancelled);
  });
});
