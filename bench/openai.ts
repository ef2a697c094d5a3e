/**
 * The OpenAI door and the live job events, against the native Local API on the same work, with the official
 * `openai` client:
 *   - speech round trip: POST /audio/speech (wav, read to the end) vs POST /tts/jobs → poll → GET output,
 *     espeak-ng, 2 000 characters; target ratio ≤ 1.05;
 *   - transcription round trip: POST /audio/transcriptions (json) vs POST /stt/jobs → poll → transcript,
 *     synthetic whisper on jfk.wav; target ratio ≤ 1.05;
 *   - time to the first audio byte of /audio/speech (past the WAV header) against the whole response; target ≤ 10 %;
 *   - event latency of GET /jobs/{id}/events: from the event's publication in the server to its arrival
 *     in the client (same process, same clock), over 20 TTS jobs; target p99 < 50 ms.
 * Medians of 5 rounds after a warm-up, alternating the two paths.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { jobEventLog } from '../src/jobs/job-event-log';
import { startLocalServer, type LocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { uploadMultipart } from '../test/helpers/multipart';
import { readSse } from '../test/helpers/sse';
import { testModel } from '../test/helpers/test-models';
import { figure, median, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const ROUNDS = 5;
const VOICE_NAME = 'English (America)';
/** 2 000 characters of ordinary prose, as bench/tts.ts uses. */
const TEXT = 'The committee met on a rainy Tuesday to review the plans for the new library. '.repeat(26).slice(0, 2000);

async function poll(server: LocalServer, id: string): Promise<void> {
  for (;;) {
    const job = (await (await fetch(`${server.url}/jobs/${id}`)).json()) as { status: string; error: string | null };
    if (job.status === 'succeeded') return;
    if (['failed', 'cancelled', 'interrupted'].includes(job.status))
      throw new Error(`The bench job ${job.status}: ${job.error}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function nativeSpeech(server: LocalServer, voiceId: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}/tts/jobs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ voiceId, text: TEXT, outputFormat: 'wav', sampleRate: 24000 }),
  });
  const { id } = (await res.json()) as { id: string };
  await poll(server, id);
  await (await fetch(`${server.url}/jobs/${id}/output`)).arrayBuffer();
  return (performance.now() - started) / 1000;
}

/** Seconds to the first audio byte (past the 44-byte WAV header, which leaves at once) and to the last. */
async function openAiSpeech(client: OpenAI): Promise<{ first: number; whole: number }> {
  const started = performance.now();
  const response = await client.audio.speech.create({
    model: 'espeak-ng',
    voice: VOICE_NAME,
    input: TEXT,
    response_format: 'wav',
  });
  const reader = response.body!.getReader();
  let first = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    bytes += value?.length ?? 0;
    if (first === 0 && (bytes > 44 || done)) first = (performance.now() - started) / 1000;
    if (done) break;
  }
  return { first, whole: (performance.now() - started) / 1000 };
}

async function nativeTranscription(server: LocalServer, media: string): Promise<number> {
  const started = performance.now();
  const res = await uploadMultipart(
    `${server.url}/stt/jobs`,
    { language: 'en', diarizationEnabled: 'false' },
    { source: media, filename: path.basename(media) },
  );
  const { id } = res.json() as { id: string };
  await poll(server, id);
  await (await fetch(`${server.url}/jobs/${id}/transcript?format=json-simple`)).arrayBuffer();
  return (performance.now() - started) / 1000;
}

async function openAiTranscription(client: OpenAI, media: string): Promise<number> {
  const started = performance.now();
  await client.audio.transcriptions.create({ file: createReadStream(media), model: 'whisper-1', language: 'en' });
  return (performance.now() - started) / 1000;
}

/** Milliseconds from each event's publication to its arrival, over `jobs` short TTS jobs. */
async function eventLatencies(server: LocalServer, voiceId: string, jobs: number): Promise<number[]> {
  const published = new Map<string, number>();
  const log = jobEventLog(server.jobs);
  const onEvent = (event: { id: string }): void => void published.set(event.id, performance.now());
  log.on('event', onEvent);
  const latencies: number[] = [];
  try {
    for (let i = 0; i < jobs; i++) {
      const res = await fetch(`${server.url}/tts/jobs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voiceId, text: TEXT.slice(0, 600) }),
      });
      const { id } = (await res.json()) as { id: string };
      const stream = await fetch(`${server.url}/jobs/${id}/events`);
      for await (const event of readSse(stream.body!)) {
        const sent = event.id ? published.get(event.id) : undefined;
        if (sent !== undefined) latencies.push(event.at - sent); // events from before the stream opened are replays
      }
    }
  } finally {
    log.off('event', onEvent);
  }
  return latencies;
}

export async function runOpenAiBench(): Promise<Figure[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-openai-'));
  await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
  await symlink(
    testModel('whisper', 'ggml-synthetic-random.bin'),
    path.join(dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
  );
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    auth: false,
    log: silentLogger,
    engineWorkerPath: ENGINE_WORKER,
  });
  const client = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
  const media = testModel('audio', 'jfk.wav');
  try {
    const page = (await (
      await fetch(`${server.url}/voices?search=${encodeURIComponent(VOICE_NAME)}&limit=100`)
    ).json()) as { items: Array<{ id: string; name: string }> };
    const voiceId = page.items.find((voice) => voice.name === VOICE_NAME)!.id;

    await nativeSpeech(server, voiceId);
    await openAiSpeech(client);
    const native: number[] = [];
    const openAi: Array<{ first: number; whole: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      native.push(await nativeSpeech(server, voiceId));
      openAi.push(await openAiSpeech(client));
    }
    const wholeOpenAi = median(openAi.map((run) => run.whole));
    const firstByte = median(openAi.map((run) => run.first));

    await nativeTranscription(server, media);
    await openAiTranscription(client, media);
    const nativeStt: number[] = [];
    const openAiStt: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      nativeStt.push(await nativeTranscription(server, media));
      openAiStt.push(await openAiTranscription(client, media));
    }

    const latencies = (await eventLatencies(server, voiceId, 20)).sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)];
    return [
      figure(
        'openai',
        'speech: /audio/speech streamed / native job → poll → output (espeak-ng, 2 000 chars, wav)',
        wholeOpenAi / median(native),
        '×',
        { kind: 'max', value: 1.05 },
        `medians of ${ROUNDS}: OpenAI ${wholeOpenAi.toFixed(2)} s, native ${median(native).toFixed(2)} s`,
      ),
      figure(
        'openai',
        'speech: first audio byte / whole response (same request, 2 000 chars)',
        firstByte / wholeOpenAi,
        '×',
        { kind: 'max', value: 0.1 },
        `medians: first byte ${(firstByte * 1000).toFixed(0)} ms of ${(wholeOpenAi * 1000).toFixed(0)} ms`,
      ),
      figure(
        'openai',
        'transcription: /audio/transcriptions / native job → poll → transcript (synthetic whisper, jfk.wav)',
        median(openAiStt) / median(nativeStt),
        '×',
        { kind: 'max', value: 1.05 },
        `medians of ${ROUNDS}: OpenAI ${median(openAiStt).toFixed(2)} s, native ${median(nativeStt).toFixed(2)} s`,
      ),
      figure(
        'openai',
        'events: GET /jobs/{id}/events publication → client, p99',
        p99,
        'ms',
        { kind: 'max', value: 50 },
        `${latencies.length} events over 20 jobs, median ${median(latencies).toFixed(1)} ms`,
      ),
    ];
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
