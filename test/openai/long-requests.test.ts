/**
 * Requests that wait on a job: the connection is silent while the job is queued or runs, and the server must
 * not take that silence for an idle connection. A stock `openai` client waits up to 10 minutes; the server
 * cut it at its idle limit (60 s by default) and cancelled the job behind it. Here the idle limit is short, so
 * a job longer than it shows the same thing in seconds.
 */
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, symlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { isTerminal, postJson, useTestServer, waitFor, waitForJob } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';

const IDLE_MS = 400;
const MODEL_FILE = 'ggml-synthetic-random.bin';

describe('requests that wait on their job longer than the idle limit', () => {
  const t = useTestServer({ timeouts: { idleMs: IDLE_MS } });
  let client: OpenAI;
  let voice: string;
  before(async () => {
    await mkdir(path.join(t.dataDir, 'models', 'whisper'), { recursive: true });
    await mkdir(path.join(t.dataDir, 'models', 'vad'), { recursive: true });
    await symlink(testModel('whisper', MODEL_FILE), path.join(t.dataDir, 'models', 'whisper', MODEL_FILE));
    await copyFile(
      testModel('vad/ggml-silero-v6.2.0.bin'),
      path.join(t.dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );
    client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    voice = await englishVoiceId(t.base);
  });

  it('answers a transcription queued behind a long narration, through the openai SDK', async () => {
    // A narration of tens of seconds runs first, so the transcription waits far longer than the idle limit.
    const blocker = (await postJson(`${t.base}/tts/jobs`, { voiceId: voice, text: LONG_TEXT })).json();
    await waitForJob(t.base, blocker.id, (job) => job.status === 'running' || isTerminal(job));
    const started = Date.now();
    const response = await client.audio.transcriptions
      .create({ file: createReadStream(testModel('audio/jfk.wav')), model: 'whisper-1', language: 'en' })
      .withResponse();
    const waitedMs = Date.now() - started;
    assert.equal(typeof response.data.text, 'string');
    const id = response.response.headers.get('x-speech-studio-job-id');
    const job = t.server.jobs.list().find((each) => each.id === id);
    assert.equal(job?.status, 'succeeded');
    // The proof is only worth something if the request really outlasted the idle limit.
    assert.ok(waitedMs > 2 * IDLE_MS, `the request took ${waitedMs} ms, not longer than the idle limit`);
  });

  it('still closes a kept-alive connection that has nothing in flight', async () => {
    const url = new URL(t.base);
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    let closed = false;
    socket.once('close', () => (closed = true));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /v1/health HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await waitFor(
      'the health answer',
      async () => answer,
      (text) => /^HTTP\/1\.1 200 /.test(text),
      20_000,
    );
    await waitFor(
      'the idle connection closed',
      async () => closed,
      (value) => value,
      20_000,
    );
  });
});
