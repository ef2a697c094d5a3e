/**
 * One core error, each door's wire shape: a full queue (the core's QueueFullError) reaches a client of the
 * Local API, the OpenAI door and MCP as QUEUE_FULL with the seconds to wait, and a file the decoder cannot
 * read reaches the OpenAI door and MCP as the same INVALID_REQUEST naming `file`.
 */
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { ERROR_STATUS, LOCAL_ERROR_STATUS } from '../../src/contract/errors';
import { assertErrorBody, postJson, request, startTestServer, tempDir, type TestServer } from '../helpers/server';
import { uploadMultipart } from '../helpers/multipart';
import { installSttModel } from '../helpers/stt-engine';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: any };

describe('a full queue through every door', () => {
  let t: TestServer;
  let busy: string;
  let client: Client;
  let scratch: string;
  before(async () => {
    // MCP's file tools may read the shared test audio (src/local-files/confined-paths.ts).
    t = await startTestServer({ queueCapacity: 1, allowedFolders: () => [path.dirname(testModel('audio/jfk.wav'))] });
    await installSttModel(t.dataDir);
    scratch = await tempDir();
    const started = await postJson(`${t.base}/tts/jobs`, { voiceId: await englishVoiceId(t.base), text: LONG_TEXT });
    assert.equal(started.status, 200);
    busy = started.json().id;
    client = new Client({ name: 'speech-studio-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
  });
  after(async () => {
    await client?.close();
    await request(`${t.base}/jobs/${busy}/cancel`, { method: 'POST' });
    await t.dispose();
    await rm(scratch, { recursive: true, force: true });
  });

  it("Local API: POST /stt/jobs answers 429 QUEUE_FULL with Retry-After, in the spec's error body", async () => {
    const refused = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
    );
    assertErrorBody(refused, 429, 'QUEUE_FULL');
    assert.equal(refused.headers['retry-after'], '5');
  });

  it('OpenAI door: the SDK raises RateLimitError with code QUEUE_FULL and Retry-After, for transcriptions too', async () => {
    const openai = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    await assert.rejects(
      openai.audio.transcriptions.create({ file: createReadStream(testModel('audio/jfk.wav')), model: 'whisper-1' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.RateLimitError, String(error));
        assert.equal(error.code, 'QUEUE_FULL');
        assert.equal(error.type, 'rate_limit_error');
        assert.equal(error.headers?.get('retry-after'), '5');
        return true;
      },
    );
  });

  it('MCP: narrate and transcribe answer a tool error with QUEUE_FULL and the seconds to wait', async () => {
    for (const [name, args] of [
      ['narrate', { text: 'Not now.' }],
      ['transcribe', { path: testModel('audio/jfk.wav') }],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      assert.equal(result.isError, true, name);
      assert.match(result.content[0].text!, /^QUEUE_FULL: .*\(retry after 5 s\)$/, name);
      assert.deepEqual(
        { ...result.structuredContent.error, message: undefined },
        { code: 'QUEUE_FULL', status: 429, message: undefined, retryAfterSeconds: 5 },
        name,
      );
    }
  });

  it('no door left a job or a job folder behind for what it refused', async () => {
    const jobs = t.server.jobs.list();
    assert.deepEqual(
      jobs.map((job) => job.id),
      [busy],
    );
  });
});

describe('a file the decoder cannot read, through the OpenAI door and MCP', () => {
  let t: TestServer;
  let scratch: string;
  let notMedia: string;
  before(async () => {
    t = await startTestServer({ allowedFolders: () => [scratch] });
    await installSttModel(t.dataDir);
    scratch = await tempDir();
    notMedia = path.join(scratch, 'notes.wav');
    // A WAV's signature (so MCP's pre-check lets it through to the job) over words: the decoder fails on it.
    const words = Buffer.from('these are words, not audio '.repeat(100));
    const riff = Buffer.alloc(12);
    riff.write('RIFF', 0, 'ascii');
    riff.writeUInt32LE(4 + words.length, 4);
    riff.write('WAVE', 8, 'ascii');
    await writeFile(notMedia, Buffer.concat([riff, words]));
  });
  after(async () => {
    await t.dispose();
    await rm(scratch, { recursive: true, force: true });
  });

  it("is the same INVALID_REQUEST naming file, in each door's shape", async () => {
    const openai = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    let openAiMessage = '';
    await assert.rejects(
      openai.audio.transcriptions.create({ file: createReadStream(notMedia), model: 'whisper-1' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.UnprocessableEntityError, String(error));
        assert.equal(error.code, 'INVALID_REQUEST');
        assert.equal(error.param, 'file');
        openAiMessage = error.message;
        return true;
      },
    );
    const client = new Client({ name: 'speech-studio-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
    try {
      const result = (await client.callTool({ name: 'transcribe', arguments: { path: notMedia } })) as ToolResult;
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent.error.code, 'INVALID_REQUEST');
      assert.equal(result.structuredContent.error.status, 422);
      assert.match(result.structuredContent.error.message, /^file: /);
      assert.match(openAiMessage, /^422 file: /);
    } finally {
      await client.close();
    }
  });
});

describe('the registry on the wire', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.dispose());

  it('the served OpenAPI document lists exactly the HTTP codes: the local ones (models, own voices, live cap) stay off it', async () => {
    const document = (await request(`${t.base}/openapi.json`)).json();
    const codes: string[] = document.components.schemas.Error.properties.error.properties.code.enum;
    assert.deepEqual(codes, Object.keys(ERROR_STATUS));
    assert.deepEqual(
      Object.keys(LOCAL_ERROR_STATUS).filter((code) => codes.includes(code)),
      [],
    );
  });
});
