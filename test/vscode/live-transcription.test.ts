/**
 * The extension API's live transcription, called as another extension calls it (the extension's exports):
 * PCM pushed in, the utterance committed, its final text and word times out, then stopped; options checked at
 * the boundary. The synthetic whisper model has random weights: only the structure is checked.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from './harness';
import { extensionApi, setting, testModel, waitFor } from './helpers';

async function jfkSamples(): Promise<Int16Array> {
  const bytes = await readFile(testModel('audio/jfk.wav'));
  const at = bytes.indexOf('data') + 8;
  const size = bytes.readUInt32LE(at - 4) & ~1;
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + size));
}

test('startLiveTranscription: pushed PCM, committed, comes back as a completed utterance; stop ends the session', async () => {
  const models = path.join(setting<string>('dataDirectory'), 'models', 'whisper');
  await mkdir(models, { recursive: true });
  await copyFile(testModel('whisper/ggml-synthetic-random.bin'), path.join(models, 'ggml-synthetic-random.bin'));
  const api = await extensionApi();
  const live = await api.startLiveTranscription({ sampleRate: 16000, language: 'en', turnDetection: false });
  const completed: Array<{ itemId: string; transcript: string; words: unknown[] }> = [];
  const problems: string[] = [];
  live.onDidCompleteItem((item) => completed.push(item));
  live.onDidFail((problem) => problems.push(`${problem.code}: ${problem.message}`));
  const samples = await jfkSamples();
  for (let at = 0; at < samples.length; at += 1600) live.pushPcm(samples.subarray(at, at + 1600));
  live.commit();
  const [item] = await waitFor(
    'the completed utterance',
    () => (completed.length > 0 || problems.length > 0 ? completed : undefined),
    120_000,
  );
  assert.deepEqual(problems, []);
  assert.ok(item, 'one utterance completed');
  assert.match(item.itemId, /^item_/);
  assert.equal(typeof item.transcript, 'string');
  assert.ok(Array.isArray(item.words));
  await live.stop();
  assert.throws(() => live.pushPcm(samples.subarray(0, 160)), /stopped/);
  await assert.rejects(api.startLiveTranscription({ sampleRate: 44100 as never }), TypeError);
}, 180_000);

test('startLiveTranscription: past the live session cap, which GET /v1/realtime shares, it rejects with session_limit_reached; a stopped session frees its slot', async () => {
  const models = path.join(setting<string>('dataDirectory'), 'models', 'whisper');
  await mkdir(models, { recursive: true });
  await copyFile(testModel('whisper/ggml-synthetic-random.bin'), path.join(models, 'ggml-synthetic-random.bin'));
  const api = await extensionApi();
  const open: Array<{ stop(): Promise<void> }> = [];
  try {
    // The default cap is 8 sessions, counted over every door; no other session is open now.
    for (let i = 0; i < 8; i += 1) open.push(await api.startLiveTranscription({ turnDetection: false }));
    await assert.rejects(api.startLiveTranscription({ turnDetection: false }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'session_limit_reached');
      assert.match(error.message, /8 live transcription sessions at most; try again when one ends/);
      return true;
    });
    await open.pop()?.stop();
    open.push(await api.startLiveTranscription({ turnDetection: false }));
  } finally {
    for (const session of open) await session.stop();
  }
}, 120_000);
