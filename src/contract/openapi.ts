/**
 * The OpenAPI 3.1 description of the Local Speech API v1: the single source of the request schemas.
 * The server compiles its validators from this object at start-up and serves it at GET /v1/openapi.json.
 */
import { openAiPaths } from './openapi-openai';
export const SAMPLE_RATES = [16000, 22050, 24000, 32000, 44100, 48000] as const;
export const BITRATES = [64, 96, 128, 192, 256, 320] as const;
export const OUTPUT_FORMATS = ['wav', 'mp3', 'aac', 'flac'] as const;
export const TRANSCRIPT_FORMATS = ['txt', 'srt', 'vtt', 'json-simple', 'json-full'] as const;
export const JOB_STATUSES = [
  'queued', 'loading_model', 'processing', 'succeeded', 'failed', 'cancelled', 'interrupted',
] as const;
export const MAX_TTS_TEXT = 100_000;

const uuid = { type: 'string', format: 'uuid' } as const;
const nullable = (type: string) => ({ type: [type, 'null'] });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: object) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: jsonContent(ref('Error')) });

const ttsRequest = {
  type: 'object',
  additionalProperties: false,
  required: ['voiceId', 'text'],
  properties: {
    voiceId: { ...uuid, description: 'A voice from GET /voices that is ready.' },
    text: { type: 'string', minLength: 1, maxLength: MAX_TTS_TEXT },
    language: { type: 'string', minLength: 1, maxLength: 35, pattern: '^[A-Za-z0-9-]+$', default: 'auto' },
    inputFormat: { type: 'string', enum: ['txt', 'srt', 'vtt'], default: 'txt' },
    outputFormat: { type: 'string', enum: OUTPUT_FORMATS, default: 'wav' },
    sampleRate: { type: 'integer', enum: SAMPLE_RATES, default: 24000 },
    bitrateKbps: { type: ['integer', 'null'], enum: [...BITRATES, null], default: 128 },
    audioChannels: { type: 'string', enum: ['mono', 'stereo'], default: 'mono' },
    steps: { type: 'integer', minimum: 8, maximum: 64, default: 32 },
    guidanceScale: { type: 'number', minimum: 0.5, maximum: 5, default: 2 },
    speed: { type: 'number', minimum: 0.5, maximum: 2, default: 1 },
    duration: { type: ['number', 'null'], exclusiveMinimum: 0, default: null },
    denoise: { type: 'boolean', default: true },
    preprocessPrompt: { type: 'boolean', default: true },
    postprocessOutput: { type: 'boolean', default: true },
    trimSilence: { type: 'boolean', default: true },
  },
} as const;

/** Form fields of the multipart STT request; `file` is the media part, streamed to disk, not validated here. */
const sttRequest = {
  type: 'object',
  additionalProperties: false,
  required: ['file'],
  properties: {
    file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The media, at most 512 MB.' },
    language: { type: 'string', minLength: 1, maxLength: 35, pattern: '^[A-Za-z0-9-]+$', default: 'auto' },
    punctuation: { type: 'boolean', default: true },
    cropStartSeconds: { type: 'number', minimum: 0 },
    cropEndSeconds: { type: 'number', exclusiveMinimum: 0 },
    diarizationEnabled: { type: 'boolean', default: true },
    speakerCountMode: { type: 'string', enum: ['auto', 'exact'], default: 'auto' },
    speakerCount: { type: 'integer', minimum: 1, maximum: 32 },
  },
} as const;

const job = {
  type: 'object',
  required: ['id', 'name', 'kind', 'status', 'progress', 'createdAt'],
  properties: {
    id: uuid,
    name: { type: 'string' },
    kind: { type: 'string', enum: ['tts', 'stt'] },
    status: { type: 'string', enum: JOB_STATUSES },
    progress: { type: 'number', minimum: 0, maximum: 100 },
    phase: nullable('string'),
    backend: nullable('string'),
    result: { type: ['object', 'null'] },
    error: nullable('string'),
    createdAt: { type: 'integer', format: 'int64', description: 'Milliseconds since the Unix epoch.' },
    startedAt: { type: ['integer', 'null'], format: 'int64' },
    finishedAt: { type: ['integer', 'null'], format: 'int64' },
  },
} as const;

const voice = {
  type: 'object',
  required: ['id', 'name', 'languageCode', 'availability', 'access'],
  properties: {
    id: uuid,
    name: { type: 'string' },
    languageCode: { type: 'string' },
    gender: { type: 'string', enum: ['female', 'male', 'neutral'] },
    ageGroup: { type: 'string', enum: ['child', 'young', 'adult', 'senior'] },
    creationMode: { type: 'string', enum: ['builtin', 'downloaded', 'cloned', 'designed'] },
    availability: { type: 'string', enum: ['ready', 'not_installed', 'installing', 'unavailable'] },
    access: { type: 'object' },
  },
} as const;

export const VOICE_QUERY_PARAMETERS = [
  { name: 'search', in: 'query', schema: { type: 'string', maxLength: 200 } },
  { name: 'languageCode', in: 'query', schema: { type: 'string', maxLength: 35 } },
  { name: 'gender', in: 'query', schema: { type: 'string', enum: ['female', 'male', 'neutral'] } },
  { name: 'scope', in: 'query', schema: { type: 'string', enum: ['all', 'builtin', 'installed', 'personal'], default: 'all' } },
  { name: 'sortBy', in: 'query', schema: { type: 'string', enum: ['name', 'languageCode', 'createdAt'], default: 'name' } },
  { name: 'sortDirection', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
] as const;

export const TRANSCRIPT_QUERY_PARAMETERS = [
  { name: 'format', in: 'query', schema: { type: 'string', enum: TRANSCRIPT_FORMATS, default: 'json-full' } },
] as const;

const jobIdParameter = { name: 'id', in: 'path', required: true, schema: uuid };
const jobResponse = { description: 'The job.', content: jsonContent(ref('Job')) };
const creationErrors = {
  '401': errorResponse('Bearer key missing or wrong.'),
  '402': errorResponse('The account lacks the entitlement named in `feature`.'),
  '409': errorResponse('The voice or model is not ready.'),
  '422': errorResponse('Invalid payload; the message names the field.'),
  '429': errorResponse('Queue full; see Retry-After.'),
};

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Speech Studio Local Speech API',
    version: '1.0.0',
    description: 'Asynchronous text-to-speech and speech-to-text jobs on this machine. Poll GET /jobs/{id}.',
    license: { name: 'GPL-3.0-or-later', identifier: 'GPL-3.0-or-later' },
  },
  servers: [{ url: 'http://127.0.0.1:17860/v1' }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Only when authentication is on.' } },
    schemas: {
      Job: job,
      Voice: voice,
      VoicePage: {
        type: 'object',
        required: ['items', 'meta'],
        properties: {
          items: { type: 'array', items: ref('Voice') },
          meta: {
            type: 'object',
            properties: {
              page: { type: 'integer' }, limit: { type: 'integer' },
              total: { type: 'integer' }, totalPages: { type: 'integer' },
            },
          },
        },
      },
      Capabilities: {
        type: 'object',
        required: ['apiVersion', 'authEnabled', 'ttsEnabled', 'sttEnabled', 'models'],
        properties: {
          apiVersion: { type: 'string' },
          authEnabled: { type: 'boolean' },
          ttsEnabled: { type: 'boolean' },
          sttEnabled: { type: 'boolean' },
          models: {
            type: 'object',
            required: ['ttsInstalled', 'sttInstalled'],
            properties: { ttsInstalled: { type: 'boolean' }, sttInstalled: { type: 'boolean' } },
          },
        },
      },
      Health: {
        type: 'object',
        required: ['status', 'service', 'apiVersion'],
        properties: {
          status: { const: 'ok' },
          service: { const: 'studio-local-api' },
          apiVersion: { const: 'v1' },
        },
      },
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: {
              code: { type: 'string' },
              message: { type: 'string' },
              feature: { type: 'string' },
            },
          },
        },
      },
      TtsRequest: ttsRequest,
      SttRequest: sttRequest,
    },
  },
  security: [{}, { bearer: [] }],
  paths: {
    '/health': {
      get: { operationId: 'getHealth', responses: { '200': { description: 'Alive.', content: jsonContent(ref('Health')) } } },
    },
    '/capabilities': {
      get: {
        operationId: 'getCapabilities',
        responses: { '200': { description: 'What this machine can do.', content: jsonContent(ref('Capabilities')) } },
      },
    },
    '/openapi.json': {
      get: { operationId: 'getOpenApi', responses: { '200': { description: 'This document.' } } },
    },
    '/voices': {
      get: {
        operationId: 'listVoices',
        parameters: VOICE_QUERY_PARAMETERS,
        responses: {
          '200': { description: 'A page of voices.', content: jsonContent(ref('VoicePage')) },
          '422': errorResponse('A query parameter is out of range.'),
        },
      },
    },
    '/tts/jobs': {
      post: {
        operationId: 'createTtsJob',
        requestBody: { required: true, content: jsonContent(ref('TtsRequest')) },
        responses: { '200': jobResponse, ...creationErrors },
      },
    },
    '/stt/jobs': {
      post: {
        operationId: 'createSttJob',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('SttRequest') } } },
        responses: {
          '200': jobResponse, ...creationErrors,
          '413': errorResponse('The file is larger than 512 MB.'),
        },
      },
    },
    '/jobs/{id}': {
      get: {
        operationId: 'getJob',
        parameters: [jobIdParameter],
        responses: { '200': jobResponse, '404': errorResponse('No such Local API job.') },
      },
    },
    '/jobs/{id}/cancel': {
      post: {
        operationId: 'cancelJob',
        parameters: [jobIdParameter],
        responses: {
          '200': jobResponse,
          '404': errorResponse('No such Local API job.'),
          '422': errorResponse('The job has already finished.'),
        },
      },
    },
    '/jobs/{id}/output': {
      get: {
        operationId: 'getJobOutput',
        parameters: [jobIdParameter],
        responses: {
          '200': {
            description: 'The audio of a succeeded TTS job.',
            content: Object.fromEntries(
              ['audio/wav', 'audio/mpeg', 'audio/aac', 'audio/flac'].map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
            ),
          },
          '404': errorResponse('No such job or output.'),
          '409': errorResponse('Not a succeeded TTS job.'),
        },
      },
    },
    '/jobs/{id}/transcript': {
      get: {
        operationId: 'getJobTranscript',
        parameters: [jobIdParameter, ...TRANSCRIPT_QUERY_PARAMETERS],
        responses: {
          '200': { description: 'The transcript in the asked format.' },
          '404': errorResponse('No such job.'),
          '409': errorResponse('Not a succeeded STT job.'),
          '422': errorResponse('Unknown format.'),
        },
      },
    },
    ...openAiPaths,
  },
} as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
export type JobStatus = (typeof JOB_STATUSES)[number];
