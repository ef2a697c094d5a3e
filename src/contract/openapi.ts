/**
 * The OpenAPI 3.1 description of the Local Speech API v1: the single source of the request schemas.
 * The server compiles its validators from this object at start-up and serves it at GET /v1/openapi.json,
 * with `servers` set to the address the request reached (`openApiDocumentFor`).
 */
import { jobCreationPaths, jobPaths, lexiconPaths, mcpPaths, servicePaths, TAGS, voicePaths } from './openapi-paths';
import { localResponses } from './openapi-responses';
import { JOB_STATUSES, OUTPUT_FORMATS, schemas, TRANSCRIPT_FORMATS } from './openapi-schemas';
import { LIVE_TAG, livePaths } from './openapi-live';
import { OPENAI_TAG_OBJECT, openAiPaths, openAiResponses, openAiSchemas } from './openapi-openai';

export {
  AUDIO_MEDIA_TYPES,
  BITRATES,
  JOB_STATUSES,
  MAX_TTS_TEXT,
  OUTPUT_FORMATS,
  SAMPLE_RATES,
  TRANSCRIPT_FORMATS,
  TRANSCRIPT_MEDIA_TYPES,
  TTS_SPEED,
} from './openapi-schemas';
export { TRANSCRIPT_QUERY_PARAMETERS, VOICE_QUERY_PARAMETERS } from './openapi-paths';

/** The contract's default base URL: loopback, port 17860, prefix /v1. The served document names the real one. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:17860/v1';

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Speech Studio Local Speech API',
    version: '1.0.0',
    summary: 'Text-to-speech and speech-to-text jobs on this machine.',
    description:
      'Asynchronous text-to-speech and speech-to-text jobs on this machine: create a job, poll GET /jobs/{id} until it ' +
      'has finished, then download its audio or transcript. Every error is a JSON error body with a code. Besides the ' +
      'answers listed per operation, an unknown path answers 404 NOT_FOUND and a known path with another method 405 ' +
      'METHOD_NOT_ALLOWED (with Allow). Multipart and query number fields take decimal numbers (2.5, 10), not 0x10 or Infinity.',
    contact: { name: 'Speech Studio' },
    license: { name: 'GPL-3.0-or-later', identifier: 'GPL-3.0-or-later' },
  },
  servers: [
    { url: DEFAULT_BASE_URL, description: 'The Local API (the served document names the address it was reached at).' },
  ],
  tags: [TAGS.service, TAGS.voices, TAGS.jobs, TAGS.lexicon, OPENAI_TAG_OBJECT, LIVE_TAG, TAGS.mcp],
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'Only when authentication is on: the key from Speech Studio: Copy API Key.',
      },
    },
    schemas: { ...schemas, ...openAiSchemas },
    responses: { ...localResponses, ...openAiResponses },
  },
  security: [{}, { bearer: [] }],
  paths: {
    ...servicePaths(),
    ...voicePaths(),
    ...jobCreationPaths(),
    ...jobPaths(),
    ...openAiPaths,
    ...lexiconPaths(),
    ...livePaths(),
    ...mcpPaths(),
  },
} as const;

/** The document as served: `servers` names the base URL the client reached (e.g. `http://127.0.0.1:5123/v1`). */
export function openApiDocumentFor<D extends { servers: readonly object[] }>(document: D, baseUrl: string): D {
  return { ...document, servers: [{ url: baseUrl, description: 'This server.' }] };
}

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
export type JobStatus = (typeof JOB_STATUSES)[number];
