import assert from 'node:assert/strict';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, declareRoots, installWhisper } from '../helpers/mcp-client';
import { CLI, request, tempDir, waitForJob, isTerminal, useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { probeAudio } from '../helpers/tts-audio';

const TOOLS = [
  'align_script',
  'dub_video',
  'export_audiobook',
  'list_voices',
  'narrate',
  'read_job',
  'transcribe',
  'translate_subtitles',
];

const call = callTool;

/** The same checks over either transport: every tool listed and called. */
async function exerciseTools(client: Client, scratch: string): Promise<string> {
  const listed = await client.listTools();
  assert.deepEqual(listed.tools.map((tool) => tool.name).sort(), TOOLS);
  assert.ok(listed.tools.every((tool) => tool.description && tool.inputSchema.type === 'object'));

  const voices = await call(client, 'list_voices', { search: 'Flite' });
  assert.equal(voices.isError, undefined, voices.content[0]?.text);
  assert.equal(voices.structuredContent.voices.length, 4);

  const started = await call(client, 'narrate', { text: 'A job for later.', voice: 'nova' });
  assert.equal(started.isError, undefined, started.content[0]?.text);
  const jobId = started.structuredContent.job.id;
  assert.match(started.structuredContent.job.name, /^MCP narration: A job for later/);
  const read = await call(client, 'read_job', { id: jobId });
  assert.equal(read.structuredContent.id, jobId);

  const audioPath = path.join(scratch, 'hello.mp3');
  const written = await call(client, 'narrate', {
    text: 'Written to a file by an agent.',
    voice: 'English (America)',
    outputPath: audioPath,
  });
  assert.equal(written.isError, undefined, written.content[0]?.text);
  assert.equal(written.structuredContent.job.status, 'succeeded');
  assert.equal((await probeAudio(audioPath)).codec, 'mp3');
  const again = await call(client, 'narrate', { text: 'Again.', outputPath: audioPath });
  assert.equal(again.isError, true);
  assert.match(again.content[0].text!, /^INVALID_REQUEST: outputPath: .* exists/);

  const srtPath = path.join(scratch, 'jfk.srt');
  const transcribed = await call(client, 'transcribe', {
    path: testModel('audio/jfk.wav'),
    format: 'srt',
    language: 'en',
    outputPath: srtPath,
  });
  assert.equal(transcribed.isError, undefined, transcribed.content[0]?.text);
  assert.equal(transcribed.structuredContent.job.status, 'succeeded');
  assert.equal(await readFile(srtPath, 'utf8'), transcribed.content[0].text);
  const notMedia = path.join(scratch, 'notes.txt');
  await writeFile(notMedia, 'not audio '.repeat(50));
  const failed = await call(client, 'transcribe', { path: notMedia });
  assert.equal(failed.isError, true);
  assert.match(failed.content[0].text!, /^INVALID_REQUEST: .*(not a media file|no audio stream)/);

  const missing = await call(client, 'read_job', { id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text!, /^JOB_NOT_FOUND/);
  return jobId;
}

describe('MCP over Streamable HTTP at {base}/mcp', () => {
  let scratch = '';
  const t = useTestServer({ allowedFolders: () => [scratch, path.dirname(testModel('audio/jfk.wav'))] });
  before(async () => {
    scratch = await tempDir();
    await installWhisper(t.dataDir);
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists and calls every tool with the SDK client; its jobs are Local API jobs', async () => {
    const client = new Client({ name: 'speech-studio-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
    try {
      const jobId = await exerciseTools(client, scratch);
      const job = await waitForJob(t.base, jobId, isTerminal);
      assert.equal(job.status, 'succeeded');
    } finally {
      await client.close();
    }
  });

  it("keeps the Local API's Origin rule, and answers GET with 405", async () => {
    const origin = await request(`${t.base}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: '{}',
    });
    assert.equal(origin.status, 403);
    assert.equal(origin.json().error.code, 'ORIGIN_NOT_ALLOWED');
    assert.equal((await request(`${t.base}/mcp`)).status, 405);
  });
});

describe('MCP over Streamable HTTP with authentication on', () => {
  const t = useTestServer({ auth: true });

  it('refuses a client without the key and serves one with it', async () => {
    const key = (await readFile(path.join(t.dataDir, 'api-key'), 'utf8')).trim();
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    await assert.rejects(
      anonymous.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`))),
      /401|AUTH_REQUIRED|Unauthorized/,
    );
    const client = new Client({ name: 'keyed', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    assert.equal((await client.listTools()).tools.length, TOOLS.length);
    await client.close();
  });
});

describe('MCP over stdio: node dist/cli.js mcp', () => {
  let dataDir: string;
  let scratch: string;
  before(async () => {
    dataDir = await tempDir();
    scratch = await tempDir();
    await installWhisper(dataDir);
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists and calls every tool with the SDK client, then exits when the client closes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', dataDir],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'speech-studio-test', version: '1.0.0' }, { capabilities: { roots: {} } });
    declareRoots(client, [scratch, path.dirname(testModel('audio/jfk.wav'))]);
    await client.connect(transport);
    try {
      await exerciseTools(client, scratch);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nstderr of the MCP server:\n${stderr.slice(-2000)}`, {
        cause: error,
      });
    } finally {
      await client.close();
    }
    assert.ok(
      (await stat(path.join(dataDir, 'jobs.json')).catch(() => stat(path.join(dataDir, 'jobs.json.journal')))).isFile(),
    );
  });
});
