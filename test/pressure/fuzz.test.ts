/**
 * Property-based fuzzing of everything a client controls: POST /tts/jobs bodies, POST /stt/jobs multipart
 * bodies, every query parameter, and job ids in paths. Against one server, with a fixed seed (set
 * FUZZ_SEED to explore others): the only answers are 2xx and the documented 4xx with the error body,
 * never a 500, never a hang. The engine is a stub that never finishes, so created jobs just wait and are
 * cancelled.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { after, before, describe, it } from 'node:test';
import { JobStore } from '../../src/jobs/store';
import type { JobRecord } from '../../src/jobs/types';
import { silentLogger } from '../../src/util/log';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId } from '../helpers/voices';
import { jobIdSegment, queryString, sttRequest, ttsRequest } from './fuzz-arbitraries';
import { checkAnswer, closeAgent, send } from './fuzz-client';
import { installSyntheticWhisper } from './support';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_707);
const RUNS = { tts: 2000, stt: 1200, voices: 1000, transcript: 500, ids: 1000 };

const STT_ID = '5e6f7a8b-0000-4000-8000-00000000a001';
const TTS_ID = '5e6f7a8b-0000-4000-8000-00000000a002';

/** A finished STT job with its transcript and a finished TTS job with its audio, written before the server starts. */
async function seedFinishedJobs(dataDir: string): Promise<void> {
  const common = {
    progress: 100,
    phase: 'done',
    error: null,
    createdAt: Date.now(),
    startedAt: Date.now(),
    finishedAt: Date.now(),
    origin: 'api' as const,
  };
  const options = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' as const };
  const stt: JobRecord = {
    ...common,
    id: STT_ID,
    name: 'seeded.wav',
    kind: 'stt',
    status: 'succeeded',
    backend: 'whisper.cpp',
    outputFile: 'transcript.json',
    result: {
      language: 'en',
      durationSeconds: 2,
      segmentCount: 1,
      speakerCount: null,
      transcriptFormats: ['txt', 'srt', 'vtt', 'json-simple', 'json-full'],
      model: 'ggml-synthetic-random.bin',
    },
    input: {
      kind: 'stt',
      options,
      inputFile: 'input.wav',
      originalName: 'seeded.wav',
      bytes: 10,
      modelPath: '/nowhere',
    },
  };
  const tts = {
    ...common,
    id: TTS_ID,
    name: 'seeded',
    kind: 'tts',
    status: 'succeeded',
    backend: 'espeak-ng',
    outputFile: 'output.wav',
    result: {},
    input: {
      kind: 'tts',
      characters: 5,
      options: { outputFormat: 'wav' },
      voice: { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US' },
    },
  } as unknown as JobRecord;
  const store = await JobStore.open(path.join(dataDir, 'jobs.json'), silentLogger);
  await store.insert(stt);
  await store.insert(tts);
  await store.flush();
  await mkdir(path.join(dataDir, 'jobs', STT_ID), { recursive: true });
  await mkdir(path.join(dataDir, 'jobs', TTS_ID), { recursive: true });
  const words = [
    { start: 0.1, end: 0.5, text: ' Hello', probability: 0.9 },
    { start: 0.5, end: 1.2, text: ' <b>&"world"', probability: null },
  ];
  const transcript = {
    text: 'Hello <b>&"world"',
    language: 'en',
    durationSeconds: 2,
    segments: [{ start: 0.1, end: 1.2, text: ' Hello <b>&"world"', words }],
    speakers: null,
    options,
    backend: 'whisper.cpp',
    model: 'x.bin',
  };
  await writeFile(path.join(dataDir, 'jobs', STT_ID, 'transcript.json'), JSON.stringify(transcript));
  await writeFile(path.join(dataDir, 'jobs', TTS_ID, 'output.wav'), Buffer.from('RIFF$\u0000\u0000\u0000WAVE'));
}

describe(`fuzzing the Local API (seed ${SEED})`, () => {
  let t: TestServer;
  let port: number;
  let voiceId: string;
  const created: Record<string, number> = { tts: 0, stt: 0 };
  before(async () => {
    const dataDir = await tempDir();
    await seedFinishedJobs(dataDir);
    t = await startTestServer({
      dataDir,
      queueCapacity: 10_000,
      engineWorkerPath: path.join(__dirname, 'idle-engine.cjs'),
    });
    await installSyntheticWhisper(t.dataDir);
    port = t.server.port;
    voiceId = await englishVoiceId(t.base);
  });
  after(async () => {
    closeAgent();
    await t.dispose();
  });

  /** A created job is cancelled at once, so the queue never fills; the cancel is held to the contract too. */
  async function cancelCreated(kind: 'tts' | 'stt', job: any): Promise<void> {
    assert.equal(job.kind, kind);
    assert.equal(job.status, 'queued');
    created[kind]++;
    checkAnswer(await send(port, 'POST', `/v1/jobs/${job.id}/cancel`, {}), [200, 422], 'cancel');
  }

  it('POST /tts/jobs answers every body with 200, 409, 422 or 429 and the error body', async (ctx) => {
    await fc.assert(
      fc.asyncProperty(ttsRequest(voiceId), async ({ headers, body }) => {
        const answer = await send(port, 'POST', '/v1/tts/jobs', headers, body);
        const parsed = checkAnswer(answer, [200, 409, 422, 429], `tts ${body.toString('utf8').slice(0, 200)}`);
        if (answer.status === 200) await cancelCreated('tts', parsed);
      }),
      { seed: SEED, numRuns: RUNS.tts },
    );
    ctx.diagnostic(`${RUNS.tts} bodies, ${created.tts} created a job`);
    assert.ok(
      created.tts > RUNS.tts / 20,
      `only ${created.tts} bodies were valid: the fuzzer must reach the success path too`,
    );
  });

  it('POST /stt/jobs answers every multipart body with 200, 409, 413, 422 or 429 and the error body', async (ctx) => {
    const media = (await readFile(testModel('audio/jfk.wav'))).subarray(0, 4096);
    await fc.assert(
      fc.asyncProperty(sttRequest(media), async ({ headers, body }) => {
        const answer = await send(port, 'POST', '/v1/stt/jobs', headers, body);
        const parsed = checkAnswer(answer, [200, 409, 413, 422, 429], `stt ${body.toString('latin1').slice(0, 300)}`);
        if (answer.status === 200) await cancelCreated('stt', parsed);
      }),
      { seed: SEED, numRuns: RUNS.stt },
    );
    ctx.diagnostic(`${RUNS.stt} bodies, ${created.stt} created a job`);
    assert.ok(created.stt > RUNS.stt / 20, `only ${created.stt} uploads were valid`);
  });

  it('GET /voices answers every query with 200 or 422', async () => {
    const names = ['search', 'languageCode', 'gender', 'scope', 'sortBy', 'sortDirection', 'page', 'limit'];
    const values = [
      'en',
      'en-US',
      'female',
      'male',
      'neutral',
      'all',
      'builtin',
      'installed',
      'personal',
      'name',
      'languageCode',
      'createdAt',
      'asc',
      'desc',
      '1',
      '20',
      '100',
      '0',
      '101',
      '-1',
      '1.5',
      '1e3',
      '',
    ];
    await fc.assert(
      fc.asyncProperty(queryString(names, values), async (query) => {
        const page = checkAnswer(await send(port, 'GET', `/v1/voices?${query}`, {}), [200, 422], `voices ?${query}`);
        if (page.items) assert.ok(Array.isArray(page.items) && page.items.length <= 100);
      }),
      { seed: SEED, numRuns: RUNS.voices },
    );
  });

  it('GET /jobs/{id}/transcript answers every format and id with 200, 404, 409 or 422', async () => {
    const formats = ['txt', 'srt', 'vtt', 'json-simple', 'json-full', 'doc', ''];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(STT_ID, TTS_ID, '00000000-0000-4000-8000-000000000000'),
        queryString(['format'], formats),
        async (id, query) => {
          checkAnswer(
            await send(port, 'GET', `/v1/jobs/${id}/transcript?${query}`, {}),
            [200, 404, 409, 422],
            `transcript ${id} ?${query}`,
          );
        },
      ),
      { seed: SEED, numRuns: RUNS.transcript },
    );
  });

  it('every job endpoint answers any id with its documented statuses', async () => {
    const endpoints: Array<[string, string, number[]]> = [
      ['GET', '', [200, 404]],
      ['POST', '/cancel', [200, 404, 422]],
      ['GET', '/output', [200, 404, 409]],
      ['GET', '/transcript', [200, 404, 409, 422]],
    ];
    await fc.assert(
      fc.asyncProperty(
        jobIdSegment([STT_ID, TTS_ID]),
        fc.constantFrom(...endpoints),
        async (id, [method, suffix, statuses]) => {
          // An id holding `/` reaches another route or none: 404 NOT_FOUND or 405 METHOD_NOT_ALLOWED (docs/decisions.md).
          checkAnswer(
            await send(port, method, `/v1/jobs/${id}${suffix}`, {}),
            [...statuses, 404, 405],
            `${method} /jobs/${id}${suffix}`,
          );
        },
      ),
      { seed: SEED, numRuns: RUNS.ids },
    );
    // The seeded jobs were never cancellable (finished) and are still intact.
    assert.equal(JSON.parse((await send(port, 'GET', `/v1/jobs/${STT_ID}`, {})).body.toString()).status, 'succeeded');
  });
});
