/**
 * The OpenAPI 3.1 description of the Remote Speech API v1 (the relay). Payloads, the Job, the Voice and
 * the error body are the Local API's own schemas (src/contract/openapi.ts), so both APIs validate alike.
 */
import { openApiDocument as local, TRANSCRIPT_QUERY_PARAMETERS, VOICE_QUERY_PARAMETERS } from '../../contract/openapi';
import { SCOPES } from '../data/api-keys';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('Error')) });
const jobResponse = { description: 'The job.', content: json(ref('Job')) };
const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const deviceHeader = {
  name: 'X-Studio-Device', in: 'header', required: false,
  description: 'Run the job on this device of the key\'s pool (dev_…); without it the relay chooses.',
  schema: { type: 'string', pattern: '^dev_[A-Za-z0-9]{16}$' },
};
const keyErrors = {
  '401': error('INVALID_API_KEY: the key is missing, wrong, expired or revoked.'),
  '403': error('INSUFFICIENT_SCOPE: the key lacks the scope this operation needs.'),
  '429': error('RATE_LIMITED: the key\'s requests-per-minute limit is used up; see Retry-After.'),
};
const creationErrors = {
  ...keyErrors,
  '402': error('INSUFFICIENT_CREDITS: the account\'s credit balance does not cover the job.'),
  '403': error('INSUFFICIENT_SCOPE, or DEVICE_NOT_ALLOWED: X-Studio-Device names a device outside the key\'s pool.'),
  '422': error('INVALID_REQUEST: the payload is invalid; the message names the field.'),
  '429': error('RATE_LIMITED, or CONCURRENCY_LIMIT (with maxConcurrentJobs in error); see Retry-After.'),
  '503': error('DEVICE_OFFLINE: the named device is not connected; NO_CAPABLE_DEVICE: no ready device of the pool can run the job.'),
};
const secured = (scope: string) => ({ security: [{ bearer: [scope] }] });

export const remoteOpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Speech Studio Remote Speech API',
    version: '1.0.0',
    description: 'Text-to-speech and speech-to-text jobs routed by a relay to a pool of devices. Poll GET /jobs/{id}.',
    license: local.info.license,
  },
  servers: [{ url: '{relay}/v1', variables: { relay: { default: 'http://127.0.0.1:17880' } } }],
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: `A Remote API key (ssk_live_…). Scopes: ${SCOPES.join(', ')}.` },
    },
    schemas: {
      ...local.components.schemas,
      RemoteCapabilities: {
        allOf: [ref('Capabilities')],
        type: 'object',
        required: ['devices'],
        properties: {
          devices: { type: 'object', required: ['total', 'ready'], properties: { total: { type: 'integer' }, ready: { type: 'integer' } } },
        },
      },
      RemoteHealth: {
        type: 'object', required: ['status', 'service', 'apiVersion'],
        properties: { status: { const: 'ok' }, service: { const: 'studio-remote-api' }, apiVersion: { const: 'v1' } },
      },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/health': { get: { operationId: 'getHealth', security: [], responses: { '200': { description: 'Alive.', content: json(ref('RemoteHealth')) } } } },
    '/openapi.json': { get: { operationId: 'getOpenApi', security: [], responses: { '200': { description: 'This document.' } } } },
    '/capabilities': {
      get: { operationId: 'getCapabilities', ...secured('capabilities.read'), responses: { '200': { description: 'What the key\'s pool can do.', content: json(ref('RemoteCapabilities')) }, ...keyErrors } },
    },
    '/voices': {
      get: {
        operationId: 'listVoices', ...secured('voices.read'), parameters: VOICE_QUERY_PARAMETERS,
        responses: { '200': { description: 'Voices of the ready devices of the key\'s pool.', content: json(ref('VoicePage')) }, ...keyErrors, '422': error('A query parameter is out of range.') },
      },
    },
    '/tts/jobs': {
      post: {
        operationId: 'createTtsJob', ...secured('tts.create'), parameters: [deviceHeader],
        requestBody: { required: true, content: json(ref('TtsRequest')) },
        responses: { '200': jobResponse, ...creationErrors, '413': error('STORAGE_QUOTA_EXCEEDED: no storage left for the output.') },
      },
    },
    '/stt/jobs': {
      post: {
        operationId: 'createSttJob', ...secured('stt.create'), parameters: [deviceHeader],
        requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('SttRequest') } } },
        responses: { '200': jobResponse, ...creationErrors, '413': error('FILE_TOO_LARGE (over 512 MB) or STORAGE_QUOTA_EXCEEDED.') },
      },
    },
    '/jobs/{id}': {
      get: { operationId: 'getJob', ...secured('jobs.read'), parameters: [jobId], responses: { '200': jobResponse, ...keyErrors, '404': error('No job of this key.') } },
    },
    '/jobs/{id}/cancel': {
      post: {
        operationId: 'cancelJob', ...secured('jobs.cancel'), parameters: [jobId],
        responses: { '200': jobResponse, ...keyErrors, '404': error('No job of this key.'), '422': error('JOB_NOT_ACTIVE: the job has finished.') },
      },
    },
    '/jobs/{id}/output': {
      get: {
        operationId: 'getJobOutput', ...secured('jobs.read'), parameters: [jobId],
        responses: {
          '200': local.paths['/jobs/{id}/output'].get.responses['200'], ...keyErrors,
          '404': error('No job of this key, or its output expired.'), '409': error('Not a succeeded TTS job.'),
        },
      },
    },
    '/jobs/{id}/transcript': {
      get: {
        operationId: 'getJobTranscript', ...secured('jobs.read'), parameters: [jobId, ...TRANSCRIPT_QUERY_PARAMETERS],
        responses: {
          '200': { description: 'The transcript in the asked format.' }, ...keyErrors,
          '404': error('No job of this key, or its transcript expired.'), '409': error('Not a succeeded STT job.'), '422': error('Unknown format.'),
        },
      },
    },
  },
} as const;
