/**
 * The core's registry errors and each door's one mapping of them: the error carries code, status and
 * headers; the OpenAI shape, MCP's tool error and the job-outcome rule read only that.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  ApiError,
  ERROR_STATUS,
  hasCode,
  LOCAL_ERROR_STATUS,
  REGISTRY_CODES,
  registryErrorOf,
} from '../../src/contract/errors';
import { LiveSessionLimitError } from '../../src/jobs/live-recognition';
import { ModelError } from '../../src/models/model-error';
import { OwnVoiceError } from '../../src/voices/own-voices';
import { JobNotActiveError, QueueFullError } from '../../src/jobs/job-service';
import { succeededJob } from '../../src/jobs/job-outcome';
import type { JobRecord } from '../../src/jobs/types';
import { toolError } from '../../src/mcp/server';
import { openAiErrorOf } from '../../src/openai/errors';
import { silentLogger, type Logger } from '../../src/util/log';

const job = (fields: Partial<JobRecord>): JobRecord =>
  ({
    id: 'j1',
    name: 'n',
    kind: 'stt',
    status: 'succeeded',
    progress: 100,
    phase: 'done',
    backend: null,
    result: null,
    error: null,
    createdAt: 1,
    startedAt: 2,
    finishedAt: 3,
    origin: 'api',
    outputFile: 'transcript.json',
    input: {
      kind: 'stt',
      options: {} as never,
      inputFile: 'input.wav',
      originalName: 'a.wav',
      bytes: 1,
      modelPath: '/m',
    },
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
    const full = registryErrorOf(
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
    );
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
    assert.throws(
      () => succeededJob(job({ status: 'failed', phase: 'decoding', error: 'not a media file' })),
      (error: unknown) =>
        error instanceof ApiError && error.code === 'INVALID_REQUEST' && error.message === 'file: not a media file',
    );
  });

  it('is INTERNAL_ERROR for any other failure, a cancel or an interruption', () => {
    assert.throws(
      () => succeededJob(job({ status: 'failed', phase: 'transcribing', error: 'whisper crashed.' })),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === 'INTERNAL_ERROR' &&
        error.message === 'The transcription job j1 failed: whisper crashed.',
    );
    assert.throws(
      () => succeededJob(job({ kind: 'tts', status: 'cancelled' })),
      (error: unknown) =>
        error instanceof ApiError && error.status === 500 && error.message === 'The speech job j1 was cancelled.',
    );
  });
});

describe('each door maps a registry error once', () => {
  it('OpenAI: QUEUE_FULL is a rate_limit_error with our code; an unknown error is a logged server_error', () => {
    assert.deepEqual(openAiErrorOf(new QueueFullError(1), silentLogger).error.type, 'rate_limit_error');
    assert.deepEqual(openAiErrorOf(new ApiError('INVALID_REQUEST', 'file: is empty'), silentLogger).error, {
      message: 'file: is empty',
      type: 'invalid_request_error',
      param: 'file',
      code: 'INVALID_REQUEST',
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
    assert.deepEqual(
      { ...(full.structuredContent as any).error, message: undefined },
      { code: 'QUEUE_FULL', status: 429, message: undefined, retryAfterSeconds: 5 },
    );
    const refused = toolError(new ApiError('VOICE_NOT_READY', 'The voice X is downloading.'));
    assert.equal((refused.content[0] as { text: string }).text, 'VOICE_NOT_READY: The voice X is downloading.');
    assert.equal((refused.structuredContent as any).error.retryAfterSeconds, undefined);
  });
});

/**
 * The Error classes that stay outside the registry: never shown with a code, used for control flow inside
 * one part or translated to a registry error (or a message) at the one place that catches them. Each is
 * listed in docs/core-rules.md; a new plain Error class fails here until it is either a registry error or
 * added to both lists with its reason.
 */
const INTERNAL_ERRORS = [
  'UsageError',
  'EngineTaskWithdrawnError',
  'EngineCancelledError',
  'EngineYieldedError',
  'IllegalTransitionError',
  'TaskYieldedError',
  'UserFacingError',
  'CastFileError',
  'SsmlError',
  'SayAsError',
  'SsmlReadingError',
  'SubtitleError',
  'SubtitleEditError',
  'SentenceTimeLimitError',
  'SentenceSkippedError',
  'StyleError',
  'MalformedAnswerError',
  'SpeakerVoiceError',
  'BlobTooLargeError',
  'BlobStoreError',
  'InvalidInputError',
  'ManuscriptError',
  'NoLanguageModelError',
  'JobEndedError',
  'Declined',
  'ConfigProblem',
  'UnrebuildableStoreError',
];

const root = path.resolve(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts')
      ? [{ file: relative, text: readFileSync(path.join(root, relative), 'utf8') }]
      : [];
  });
}

/** Every class that extends Error itself (not a registry error), with whether its body declares a `code`. */
export function plainErrorClasses(
  files: Array<{ file: string; text: string }>,
): Array<{ name: string; file: string; coded: boolean }> {
  return files.flatMap(({ file, text }) =>
    [...text.matchAll(/class (\w+) extends Error\b[^{]*\{/g)]
      .filter((match) => match[1] !== 'ApiError' || file !== 'src/contract/errors.ts')
      .map((match) => {
        const start = match.index + match[0].length;
        const end = text.indexOf('\n}', start);
        const body = match[0] + text.slice(start, end === -1 ? undefined : end);
        return { name: match[1], file, coded: /\bcode\b\s*[:=?]|readonly code\b/.test(body) };
      }),
  );
}

/** What breaks the rule: a plain Error class with a code, or one not on the internal list. */
export function errorsOutsideRegistry(
  files: Array<{ file: string; text: string }>,
  allowed: readonly string[],
): string[] {
  return plainErrorClasses(files).flatMap(({ name, file, coded }) => [
    ...(coded ? [`${file}: ${name} carries a code outside the registry (src/contract/errors.ts)`] : []),
    ...(allowed.includes(name)
      ? []
      : [`${file}: ${name} is a plain Error class that is neither a registry error nor listed as internal`]),
  ]);
}

describe('every coded error is in the registry', () => {
  it('no class in src/ extends Error with a code of its own, and every plain Error class is a listed internal one', () => {
    assert.deepEqual(errorsOutsideRegistry(sourceFiles('src'), INTERNAL_ERRORS), []);
  });

  it('the guard catches a planted coded class and an unlisted plain one', () => {
    const planted = [
      {
        file: 'src/x/planted.ts',
        text: "export class PlantedError extends Error {\n  constructor(readonly code: 'OOPS', message: string) {\n    super(message);\n  }\n}\n",
      },
    ];
    assert.deepEqual(errorsOutsideRegistry(planted, ['PlantedError']), [
      'src/x/planted.ts: PlantedError carries a code outside the registry (src/contract/errors.ts)',
    ]);
    assert.equal(
      errorsOutsideRegistry([{ file: 'src/y.ts', text: 'export class NewError extends Error {}\n' }], INTERNAL_ERRORS)
        .length,
      1,
    );
  });

  it('docs/core-rules.md names every internal class that stays outside the registry', () => {
    const rules = readFileSync(path.join(root, 'docs', 'core-rules.md'), 'utf8');
    assert.deepEqual(
      INTERNAL_ERRORS.filter((name) => !rules.includes(`\`${name}\``)),
      [],
    );
  });

  it('the local codes never reach the OpenAPI document, and no code is both local and of the HTTP APIs', () => {
    assert.deepEqual(
      Object.keys(LOCAL_ERROR_STATUS).filter((code) => code in ERROR_STATUS),
      [],
    );
    assert.equal(REGISTRY_CODES.length, Object.keys(ERROR_STATUS).length + Object.keys(LOCAL_ERROR_STATUS).length);
  });

  it('model, own-voice and live-cap errors are registry errors with their codes and statuses', () => {
    const model = new ModelError('CHECKSUM_MISMATCH', 'x', { status: 200 });
    assert.ok(model instanceof ApiError);
    assert.deepEqual(
      [model.code, model.status, model.details.status, model.name],
      ['CHECKSUM_MISMATCH', 502, 200, 'ModelError'],
    );
    const voice = new OwnVoiceError('NOT_FOUND', 'no such voice');
    assert.deepEqual(
      [voice.code, voice.status, hasCode(voice, 'NOT_FOUND'), hasCode(voice, 'NAME_TAKEN')],
      ['NOT_FOUND', 404, true, false],
    );
    const limit = new LiveSessionLimitError(3);
    assert.deepEqual(
      [limit.code, limit.status, limit.maxSessions, registryErrorOf(limit)],
      ['session_limit_reached', 429, 3, limit],
    );
    assert.equal(hasCode(new Error('CANCELLED'), 'CANCELLED'), false);
  });
});
