/**
 * The core's registry errors and each door's one mapping of them: the error carries code, status and
 * headers; the OpenAI shape, MCP's tool error and the job-outcome rule read only that.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, registryErrorOf } from '../../src/contract/errors';
import { JobNotActiveError, QueueFullError } from '../../src/jobs/job-service';
import { succeededJob } from '../../src/jobs/job-outcome';
import type { JobRecord } from '../../src/jobs/types';
import { toolError } from '../../src/mcp/server';
import { openAiErrorOf } from '../../src/openai/errors';
import { silentLogger, type Logger } from '../../src/util/log';

const job = (fields: Partial<JobRecord>): JobRecord => ({
  id: 'j1', name: 'n', kind: 'stt', status: 'succeeded', progress: 100, phase: 'done', backend: null, result: null, error: null,
  createdAt: 1, startedAt: 2, finishedAt: 3, origin: 'api', outputFile: 'transcript.json',
  input: { kind: 'stt', options: {} as never, inputFile: 'input.wav', originalName: 'a.wav', bytes: 1, modelPath: '/m' },
  ...fields,
}) as JobRecord;

describe('core errors are registry errors', () => {
  it('QueueFullError carries QUEUE_FULL, 429 and Retry-After itself', () => {
    const error = new QueueFullError(32);
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.code, error.status, error.headers], ['QUEUE_FULL', 429, { 'Retry-After': '5' }]);
    assert.equal(error.toBody().error.code, 'QUEUE_FULL');
    assert.match(error.message, /32 Local API jobs/);
  });

  it('JobNotActiveError is JOB_NOT_ACTIVE (422)', () => {
    const error = new JobNotActiveError(job({ status: 'failed' }));
    assert.deepEqual([error.code, error.status], ['JOB_NOT_ACTIVE', 422]);
  });

  it('a full disk becomes INTERNAL_ERROR with a sentence; anything unknown is left to the door', () => {
    const full = registryErrorOf(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    assert.equal(full?.code, 'INTERNAL_ERROR');
    assert.match(full.message, /disk of Speech Studio's data directory is full/);
    assert.equal(registryErrorOf(new TypeError('boom')), undefined);
    assert.equal(registryErrorOf('a string'), undefined);
    assert.equal(registryErrorOf(null), undefined);
    const own = new ApiError('VOICE_NOT_READY', 'x');
    assert.equal(registryErrorOf(own), own);
  });
});

describe('the outcome of a job a door waited for', () => {
  it('is the job when it succeeded', () => {
    const done = job({});
    assert.equal(succeededJob(done), done);
  });

  it('is INVALID_REQUEST naming file when the decoder could not read the input', () => {
    assert.throws(() => succeededJob(job({ status: 'failed', phase: 'decoding', error: 'not a media file' })),
      (error: unknown) => error instanceof ApiError && error.code === 'INVALID_REQUEST' && error.message === 'file: not a media file');
  });

  it('is INTERNAL_ERROR for any other failure, a cancel or an interruption', () => {
    assert.throws(() => succeededJob(job({ status: 'failed', phase: 'transcribing', error: 'whisper crashed.' })),
      (error: unknown) => error instanceof ApiError && error.code === 'INTERNAL_ERROR' && error.message === 'The transcription job j1 failed: whisper crashed.');
    assert.throws(() => succeededJob(job({ kind: 'tts', status: 'cancelled' })),
      (error: unknown) => error instanceof ApiError && error.status === 500 && error.message === 'The speech job j1 was cancelled.');
  });
});

describe('each door maps a registry error once', () => {
  it('OpenAI: QUEUE_FULL is a rate_limit_error with our code; an unknown error is a logged server_error', () => {
    assert.deepEqual(openAiErrorOf(new QueueFullError(1), silentLogger).error.type, 'rate_limit_error');
    assert.deepEqual(openAiErrorOf(new ApiError('INVALID_REQUEST', 'file: is empty'), silentLogger).error, {
      message: 'file: is empty', type: 'invalid_request_error', param: 'file', code: 'INVALID_REQUEST',
    });
    const logged: string[] = [];
    const log: Logger = { ...silentLogger, error: (message) => logged.push(message) };
    const unknown = openAiErrorOf(new Error('boom'), log).error;
    assert.deepEqual([unknown.type, unknown.code], ['server_error', 'INTERNAL_ERROR']);
    assert.equal(logged.length, 1);
  });

  it('MCP: a tool error whose text starts with the code and whose structured content carries the wait', () => {
    const full = toolError(new QueueFullError(1));
    assert.equal(full.isError, true);
    assert.match((full.content[0] as { text: string }).text, /^QUEUE_FULL: The queue is full.* \(retry after 5 s\)$/);
    assert.deepEqual({ ...(full.structuredContent as any).error, message: undefined }, { code: 'QUEUE_FULL', status: 429, message: undefined, retryAfterSeconds: 5 });
    const refused = toolError(new ApiError('VOICE_NOT_READY', 'The voice X is downloading.'));
    assert.equal((refused.content[0] as { text: string }).text, 'VOICE_NOT_READY: The voice X is downloading.');
    assert.equal((refused.structuredContent as any).error.retryAfterSeconds, undefined);
  });
});
