/**
 * The OpenAPI 3.1 description of the Remote Speech API v1 (the relay). Payloads, the Job, the Voice and
 * the error body are the Local API's own schemas (src/contract/openapi.ts), so both APIs validate alike.
 */
import { openApiDocument as local, TRANSCRIPT_QUERY_PARAMETERS, VOICE_QUERY_PARAMETERS } from '../../contract/openapi';
import { audioResponse, jobIdParameter, jobResponse, TAGS, transcriptResponse } from '../../contract/openapi-paths';
import {
  errorResponse,
  jsonContent,
  localResponses,
  responseRef,
  retryAfterHeader,
} from '../../contract/openapi-responses';
import { ref } from '../../contract/openapi-schemas';
import { SCOPES } from '../data/api-keys';

// Health and the OpenAI door's error body are the Local API's only.
// The Remote API has no alignment route (yet): its request schema stays in the Local API's document.
const {
  Health: _localHealth,
  OpenAiError: _openAiError,
  AlignRequest: _alignRequest,
  ...localSchemas
} = local.components.schemas;

const deviceHeader = {
  name: 'X-Studio-Device',
  in: 'header',
  required: false,
  description: "Run the job on this device of the key's pool (dev_…); without it the relay chooses.",
  schema: { type: 'string', pattern: '^dev_[A-Za-z0-9]{16}$' },
} as const;

const responses = {
  Unauthorized: errorResponse('INVALID_API_KEY: the key is missing, wrong, expired or revoked.', {
    'WWW-Authenticate': { description: 'The Bearer challenge.', schema: { type: 'string' } },
  }),
  ScopeMissing: errorResponse('INSUFFICIENT_SCOPE: the key lacks the scope this operation needs.'),
  RateLimited: errorResponse("RATE_LIMITED: the key's requests-per-minute limit is used up.", retryAfterHeader),
  HeadersTooLarge: localResponses.HeadersTooLarge,
  InternalError: errorResponse('INTERNAL_ERROR: something unexpected failed; the message says what.'),
  InvalidRequest: localResponses.InvalidRequest,
  JobNotFound: errorResponse('JOB_NOT_FOUND: no job with this id was created with this key.'),
} as const;

/** Answers any request can get, before or after its key is checked. */
const everyOperation = { '431': responseRef('HeadersTooLarge'), '500': responseRef('InternalError') } as const;
const keyErrors = {
  '401': responseRef('Unauthorized'),
  '403': responseRef('ScopeMissing'),
  '429': responseRef('RateLimited'),
  ...everyOperation,
} as const;
const creationErrors = {
  ...keyErrors,
  '402': errorResponse("INSUFFICIENT_CREDITS: the account's credit balance does not cover the job."),
  '403': errorResponse(
    "INSUFFICIENT_SCOPE: the key lacks the scope; DEVICE_NOT_ALLOWED: X-Studio-Device names a device outside the key's pool.",
  ),
  '422': responseRef('InvalidRequest'),
  '429': errorResponse(
    'RATE_LIMITED, or CONCURRENCY_LIMIT (with maxConcurrentJobs in error): too many requests or jobs for the key.',
    retryAfterHeader,
  ),
  '503': errorResponse(
    'DEVICE_OFFLINE: the named device is not connected; NO_CAPABLE_DEVICE: no ready device of the pool can run the job.',
    retryAfterHeader,
  ),
} as const;
/**
 * The scope an operation needs. OpenAPI lists scopes only for OAuth schemes, so a Bearer key's scope is
 * said in words and in `x-required-scope` for tools (the document-wide security asks for the key).
 */
const secured = (scope: (typeof SCOPES)[number], description: string) =>
  ({ description: `${description} Needs a key with the ${scope} scope.`, 'x-required-scope': scope }) as const;
const tags = (tag: { name: string }) => [tag.name];

export const remoteOpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Speech Studio Remote Speech API',
    version: '1.0.0',
    summary: 'Text-to-speech and speech-to-text jobs run by a pool of devices.',
    description:
      'Text-to-speech and speech-to-text jobs routed by a relay to a pool of devices: create a job, poll GET /jobs/{id} ' +
      'until it has finished, then download its audio or transcript. Every call but /health and /openapi.json needs a ' +
      'Remote API key with the scope the operation names. An unknown path answers 404 NOT_FOUND and a known path with ' +
      'another method 405 METHOD_NOT_ALLOWED.',
    contact: local.info.contact,
    license: local.info.license,
  },
  servers: [
    {
      url: 'http://127.0.0.1:17880/v1',
      description: 'A relay on this machine (the served document names the address it was reached at).',
    },
  ],
  tags: [TAGS.service, TAGS.voices, TAGS.jobs],
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: `A Remote API key (ssk_live_…). Scopes: ${SCOPES.join(', ')}.`,
      },
    },
    schemas: {
      ...localSchemas,
      RemoteCapabilities: {
        allOf: [ref('Capabilities')],
        type: 'object',
        required: ['devices'],
        properties: {
          devices: {
            type: 'object',
            required: ['total', 'ready', 'estimates'],
            properties: {
              total: { type: 'integer' },
              ready: { type: 'integer' },
              estimates: {
                type: 'array',
                items: ref('DeviceEstimate'),
                description:
                  'What automatic routing knows of each device of the pool. A job without X-Studio-Device goes to the ready, ' +
                  "capable device with the earliest estimated finish: busySeconds + the job's audio duration (TTS: its text at 15 " +
                  "characters a second; STT: estimated from the upload's size) × the device's realTimeFactor for the job's engine " +
                  'and model. When a capable device has no measurement, the one with the fewest jobs ahead.',
              },
            },
          },
        },
      },
      DeviceEstimate: {
        type: 'object',
        required: ['id', 'name', 'ready', 'jobsAhead', 'busySeconds', 'realTimeFactors'],
        properties: {
          id: { type: 'string', description: 'The device id, as X-Studio-Device takes it.' },
          name: { type: 'string' },
          ready: { type: 'boolean', description: 'Connected and heart-beating.' },
          jobsAhead: { type: 'integer', description: 'Jobs waiting or running on the device.' },
          busySeconds: {
            type: ['number', 'null'],
            description:
              'Estimated seconds until the device has finished the jobs ahead; null when it has not measured the speed they need.',
          },
          realTimeFactors: {
            type: 'array',
            description:
              'The speeds the device measured (its recent jobs and a short calibration when it joined): processing time / audio duration.',
            items: {
              type: 'object',
              required: ['kind', 'engine', 'model', 'realTimeFactor', 'samples'],
              properties: {
                kind: { type: 'string', enum: ['tts', 'stt'] },
                engine: { type: 'string', description: 'e.g. espeak-ng, piper, whisper.' },
                model: { type: 'string', description: 'TTS: the voice id; STT: the whisper model file.' },
                realTimeFactor: {
                  type: 'number',
                  exclusiveMinimum: 0,
                  description: '0.1: ten times faster than real time.',
                },
                samples: { type: 'integer', minimum: 1, description: 'Runs the figure is the median of.' },
              },
            },
          },
        },
      },
      RemoteHealth: {
        type: 'object',
        required: ['status', 'service', 'apiVersion'],
        properties: {
          status: { type: 'string', const: 'ok' },
          service: { type: 'string', const: 'studio-remote-api' },
          apiVersion: { type: 'string', const: 'v1' },
        },
      },
    },
    responses,
  },
  security: [{ bearer: [] }],
  paths: {
    '/health': {
      get: {
        operationId: 'getHealth',
        tags: tags(TAGS.service),
        security: [],
        summary: 'Check that the relay is up',
        description: 'Answers a constant body while the relay runs; needs no key.',
        responses: { '200': { description: 'Alive.', content: jsonContent(ref('RemoteHealth')) }, ...everyOperation },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        tags: tags(TAGS.service),
        security: [],
        summary: 'Get this OpenAPI document',
        description:
          'The OpenAPI 3.1 description of the Remote API, with `servers` naming the address the request reached.',
        responses: {
          '200': { description: 'This document.', content: jsonContent({ type: 'object' }) },
          ...everyOperation,
        },
      },
    },
    '/capabilities': {
      get: {
        operationId: 'getCapabilities',
        tags: tags(TAGS.service),
        summary: "Tell what the key's pool can do",
        ...secured(
          'capabilities.read',
          "The Local API's capabilities for the key's device pool as a whole, how many of its devices are ready, and routing's estimates for each.",
        ),
        responses: {
          '200': { description: "What the key's pool can do.", content: jsonContent(ref('RemoteCapabilities')) },
          ...keyErrors,
        },
      },
    },
    '/voices': {
      get: {
        operationId: 'listVoices',
        tags: tags(TAGS.voices),
        summary: 'List the voices of the pool',
        ...secured(
          'voices.read',
          "The voices of the ready devices of the key's pool, a page at a time, filtered and sorted by the query.",
        ),
        parameters: VOICE_QUERY_PARAMETERS,
        responses: {
          '200': {
            description: "Voices of the ready devices of the key's pool.",
            content: jsonContent(ref('VoicePage')),
          },
          ...keyErrors,
          '422': responseRef('InvalidRequest'),
        },
      },
    },
    '/tts/jobs': {
      post: {
        operationId: 'createTtsJob',
        tags: tags(TAGS.jobs),
        summary: 'Create a text-to-speech job',
        ...secured(
          'tts.create',
          'Queues the synthesis on a device of the pool that has the voice (or on the device X-Studio-Device names).',
        ),
        parameters: [deviceHeader],
        requestBody: { required: true, content: jsonContent(ref('TtsRequest')) },
        responses: {
          '200': jobResponse,
          ...creationErrors,
          '413': errorResponse('STORAGE_QUOTA_EXCEEDED: no storage left for the output.'),
        },
      },
    },
    '/stt/jobs': {
      post: {
        operationId: 'createSttJob',
        tags: tags(TAGS.jobs),
        summary: 'Create a speech-to-text job',
        ...secured(
          'stt.create',
          'Uploads the media and queues its transcription on a device of the pool that can transcribe it.',
        ),
        parameters: [deviceHeader],
        requestBody: {
          required: true,
          content: { 'multipart/form-data': local.paths['/stt/jobs'].post.requestBody.content['multipart/form-data'] },
        },
        responses: {
          '200': jobResponse,
          ...creationErrors,
          '413': errorResponse('FILE_TOO_LARGE (over 512 MB) or STORAGE_QUOTA_EXCEEDED.'),
        },
      },
    },
    '/jobs/{id}': {
      get: {
        operationId: 'getJob',
        tags: tags(TAGS.jobs),
        summary: 'Get a job',
        ...secured('jobs.read', 'The job with its status, progress and, once it has succeeded, its result.'),
        parameters: [jobIdParameter],
        responses: { '200': jobResponse, ...keyErrors, '404': responseRef('JobNotFound') },
      },
    },
    '/jobs/{id}/cancel': {
      post: {
        operationId: 'cancelJob',
        tags: tags(TAGS.jobs),
        summary: 'Cancel a job',
        ...secured('jobs.cancel', 'Cancels a queued or running job; its device stops working on it.'),
        parameters: [jobIdParameter],
        responses: {
          '200': jobResponse,
          ...keyErrors,
          '404': responseRef('JobNotFound'),
          '422': errorResponse('JOB_NOT_ACTIVE: the job has finished.'),
        },
      },
    },
    '/jobs/{id}/output': {
      get: {
        operationId: 'getJobOutput',
        tags: tags(TAGS.jobs),
        summary: 'Download the audio of a TTS job',
        ...secured('jobs.read', 'The audio file of a succeeded text-to-speech job, while the relay keeps it.'),
        parameters: [jobIdParameter],
        responses: {
          '200': audioResponse,
          ...keyErrors,
          '404': errorResponse('JOB_NOT_FOUND: no job of this key; OUTPUT_NOT_FOUND: its output expired.'),
          '409': errorResponse(
            'JOB_NOT_COMPLETED: the job has not succeeded; WRONG_JOB_KIND: it is a speech-to-text job.',
          ),
        },
      },
    },
    '/jobs/{id}/transcript': {
      get: {
        operationId: 'getJobTranscript',
        tags: tags(TAGS.jobs),
        summary: 'Download the transcript of an STT job',
        ...secured(
          'jobs.read',
          'The transcript of a succeeded speech-to-text job, in the format asked for, while the relay keeps it.',
        ),
        parameters: [jobIdParameter, ...TRANSCRIPT_QUERY_PARAMETERS],
        responses: {
          '200': transcriptResponse,
          ...keyErrors,
          '404': errorResponse('JOB_NOT_FOUND: no job of this key; OUTPUT_NOT_FOUND: its transcript expired.'),
          '409': errorResponse(
            'JOB_NOT_COMPLETED: the job has not succeeded; WRONG_JOB_KIND: it is a text-to-speech job.',
          ),
          '422': errorResponse('INVALID_REQUEST: the format is not one of txt, srt, vtt, json-simple, json-full.'),
        },
      },
    },
  },
} as const;
