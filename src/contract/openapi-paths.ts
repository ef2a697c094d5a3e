/**
 * The paths of the Local API's OpenAPI document, one builder per group, so a new group of routes adds one
 * builder (and its tag) without touching the others.
 */
import { errorResponse, everyLocalOperation, jsonContent, responseRef } from './openapi-responses';
import { lexiconSchemas } from './lexicon-schema';
import { AUDIO_MEDIA_TYPES, ref, TRANSCRIPT_FORMATS, uuid } from './openapi-schemas';
import { SUBTITLE_QUERY_PARAMETERS } from './subtitle-query';

export const VOICE_QUERY_PARAMETERS = [
  {
    name: 'search',
    in: 'query',
    description: 'Words to find in the name or language.',
    schema: { type: 'string', maxLength: 200 },
  },
  {
    name: 'languageCode',
    in: 'query',
    description: 'Only voices of this language (en matches en-US).',
    schema: { type: 'string', maxLength: 35 },
  },
  { name: 'gender', in: 'query', schema: { type: 'string', enum: ['female', 'male', 'neutral'] } },
  {
    name: 'scope',
    in: 'query',
    schema: { type: 'string', enum: ['all', 'builtin', 'installed', 'personal'], default: 'all' },
  },
  {
    name: 'sortBy',
    in: 'query',
    schema: { type: 'string', enum: ['name', 'languageCode', 'createdAt'], default: 'name' },
  },
  { name: 'sortDirection', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
] as const;

export const TRANSCRIPT_QUERY_PARAMETERS = [
  {
    name: 'format',
    in: 'query',
    description: 'The transcript format.',
    schema: { type: 'string', enum: TRANSCRIPT_FORMATS, default: 'json-full' },
  },
  ...SUBTITLE_QUERY_PARAMETERS,
] as const;

export const TAGS = {
  service: { name: 'Service', description: 'Whether the API is up, what it can do, and this document.' },
  voices: { name: 'Voices', description: 'The voices text-to-speech jobs can use.' },
  lexicon: {
    name: 'Lexicon',
    description: 'The pronunciation lexicon every text-to-speech job applies before synthesis.',
  },
  jobs: {
    name: 'Jobs',
    description: 'Create text-to-speech and speech-to-text jobs, poll them, cancel them, fetch their results.',
  },
  mcp: {
    name: 'MCP',
    description:
      'The Model Context Protocol endpoint: tools for AI assistants (list_voices, narrate, transcribe, read_job).',
  },
} as const;

export const jobIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The job id.',
  schema: uuid,
} as const;
export const jobResponse = { description: 'The job.', content: jsonContent(ref('Job')) } as const;

/** The 200 answer of GET /jobs/{id}/output: the audio, in the media type of the job's output format. */
export const audioResponse = {
  description: 'The audio of a succeeded TTS job, in the media type of its output format.',
  headers: { 'Content-Disposition': { description: 'attachment, with a file name.', schema: { type: 'string' } } },
  content: Object.fromEntries(
    AUDIO_MEDIA_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary', contentMediaType: type } }]),
  ),
};

/** The 200 answer of GET /jobs/{id}/transcript: one media type per format (decisions.md, Transcript formats). */
export const transcriptResponse = {
  description: 'The transcript in the asked format: txt, srt and vtt as UTF-8 text, json-simple and json-full as JSON.',
  content: {
    'text/plain': { schema: { type: 'string', description: 'format=txt: one line per segment.' } },
    'application/x-subrip': { schema: { type: 'string', description: 'format=srt: numbered cues.' } },
    'text/vtt': { schema: { type: 'string', description: 'format=vtt: WEBVTT cues.' } },
    'application/json': { schema: { anyOf: [ref('SimpleTranscript'), ref('FullTranscript')] } },
  },
} as const;

const tags = (tag: { name: string }) => [tag.name];

export function servicePaths() {
  return {
    '/health': {
      get: {
        operationId: 'getHealth',
        tags: tags(TAGS.service),
        summary: 'Check that the API is up',
        description: 'Answers a constant body while the server runs.',
        responses: { '200': { description: 'Alive.', content: jsonContent(ref('Health')) }, ...everyLocalOperation },
      },
    },
    '/capabilities': {
      get: {
        operationId: 'getCapabilities',
        tags: tags(TAGS.service),
        summary: 'Tell what this machine can do',
        description:
          'Whether authentication is on, which features the account has, and whether TTS voices and STT models are installed.',
        responses: {
          '200': { description: 'What this machine can do.', content: jsonContent(ref('Capabilities')) },
          ...everyLocalOperation,
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        tags: tags(TAGS.service),
        summary: 'Get this OpenAPI document',
        description: 'The OpenAPI 3.1 description of the API, with `servers` naming the address the request reached.',
        responses: {
          '200': { description: 'This document.', content: jsonContent({ type: 'object' }) },
          ...everyLocalOperation,
        },
      },
    },
  };
}

export function voicePaths() {
  return {
    '/voices': {
      get: {
        operationId: 'listVoices',
        tags: tags(TAGS.voices),
        summary: 'List the voices',
        description: 'The voices the account may use, a page at a time, filtered and sorted by the query.',
        parameters: VOICE_QUERY_PARAMETERS,
        responses: {
          '200': { description: 'A page of voices.', content: jsonContent(ref('VoicePage')) },
          '422': responseRef('InvalidRequest'),
          ...everyLocalOperation,
        },
      },
    },
  };
}

export function jobCreationPaths() {
  return {
    '/tts/jobs': {
      post: {
        operationId: 'createTtsJob',
        tags: tags(TAGS.jobs),
        summary: 'Create a text-to-speech job',
        description:
          'Queues the synthesis of the text (or subtitles) with a voice. Poll GET /jobs/{id}, then fetch GET /jobs/{id}/output.',
        requestBody: { required: true, content: jsonContent(ref('TtsRequest')) },
        responses: {
          '200': jobResponse,
          '409': errorResponse('VOICE_NOT_READY: the voice is not installed or not usable yet.'),
          '422': responseRef('InvalidRequest'),
          '429': responseRef('QueueFull'),
          ...everyLocalOperation,
        },
      },
    },
    '/stt/jobs': {
      post: {
        operationId: 'createSttJob',
        tags: tags(TAGS.jobs),
        summary: 'Create a speech-to-text job',
        description:
          'Uploads the media and queues its transcription. Poll GET /jobs/{id}, then fetch GET /jobs/{id}/transcript.',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: ref('SttRequest'),
              encoding: { file: { contentType: 'application/octet-stream, audio/*, video/*' } },
            },
          },
        },
        responses: {
          '200': jobResponse,
          '409': errorResponse(
            'MODEL_NOT_INSTALLED: no speech-to-text model (or no diarization model, when asked for) is installed.',
          ),
          '413': errorResponse('FILE_TOO_LARGE: the file is larger than 512 MB.'),
          '422': responseRef('InvalidRequest'),
          '429': responseRef('QueueFull'),
          ...everyLocalOperation,
        },
      },
    },
    '/align/jobs': {
      post: {
        operationId: 'createAlignJob',
        tags: tags(TAGS.jobs),
        summary: 'Create a forced-alignment job',
        description:
          'Uploads the media and a script (or subtitles: SRT, WebVTT, ASS/SSA, TTML/DFXP or SBV) and queues timing the text to the speech; no speech-to-text model is needed. ' +
          'The job is an STT job like any other: poll GET /jobs/{id}, then fetch GET /jobs/{id}/transcript in any format. ' +
          'Its `result` says `aligned: true`, how many cues matched and which did not.',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: ref('AlignRequest'),
              encoding: {
                file: { contentType: 'application/octet-stream, audio/*, video/*' },
                script: {
                  contentType:
                    'text/plain, text/markdown, application/x-subrip, text/vtt, text/x-ssa, application/ttml+xml, application/octet-stream',
                },
              },
            },
          },
        },
        responses: {
          '200': jobResponse,
          '413': errorResponse('FILE_TOO_LARGE: the file is larger than 512 MB, or the script larger than 5 MB.'),
          '422': responseRef('InvalidRequest'),
          '429': responseRef('QueueFull'),
          ...everyLocalOperation,
        },
      },
    },
  };
}

export function jobPaths() {
  return {
    '/jobs/{id}': {
      get: {
        operationId: 'getJob',
        tags: tags(TAGS.jobs),
        summary: 'Get a job',
        description: 'The job with its status, progress and, once it has succeeded, its result.',
        parameters: [jobIdParameter],
        responses: { '200': jobResponse, '404': responseRef('JobNotFound'), ...everyLocalOperation },
      },
    },
    '/jobs/{id}/events': {
      get: {
        operationId: 'getJobEvents',
        tags: tags(TAGS.jobs),
        summary: "Follow a job's events",
        description:
          'Server-Sent Events: `job` (the Job object) on every status, phase or progress change (progress at most 4 a second), ' +
          '`segment` for STT segments as they are recognized, the terminal `job` last, then the stream ends. Send Last-Event-ID to resume.',
        parameters: [
          jobIdParameter,
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'The id of the last event received: the stream resumes after it.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          '204': {
            description: 'The job has finished and there is no event after Last-Event-ID: nothing more will come.',
          },
          '404': responseRef('JobNotFound'),
          ...everyLocalOperation,
        },
      },
    },
    '/jobs/{id}/cancel': {
      post: {
        operationId: 'cancelJob',
        tags: tags(TAGS.jobs),
        summary: 'Cancel a job',
        description: 'Cancels a queued or running job; the engine stops working on it.',
        parameters: [jobIdParameter],
        responses: {
          '200': jobResponse,
          '404': responseRef('JobNotFound'),
          '422': errorResponse('JOB_NOT_ACTIVE: the job has already finished.'),
          ...everyLocalOperation,
        },
      },
    },
    '/jobs/{id}/output': {
      get: {
        operationId: 'getJobOutput',
        tags: tags(TAGS.jobs),
        summary: 'Download the audio of a TTS job',
        description:
          'The audio file of a succeeded text-to-speech job. A `Range: bytes=first-last` header (one range; `bytes=first-` and `bytes=-suffix` too) gets that part with 206 and `Content-Range`; every answer says `Accept-Ranges: bytes`.',
        parameters: [jobIdParameter],
        responses: {
          '200': audioResponse,
          '206': {
            ...audioResponse,
            description: 'The asked byte range of the audio, with `Content-Range: bytes first-last/size`.',
          },
          '416': errorResponse(
            'RANGE_NOT_SATISFIABLE: the range starts past the end of the file; `Content-Range: bytes */size` gives its size.',
          ),
          '404': errorResponse(
            'JOB_NOT_FOUND: no such Local API job; OUTPUT_NOT_FOUND: its file is gone from the data directory.',
          ),
          '409': errorResponse(
            'JOB_NOT_COMPLETED: the job has not succeeded; WRONG_JOB_KIND: it is a speech-to-text job.',
          ),
          ...everyLocalOperation,
        },
      },
    },
    '/jobs/{id}/transcript': {
      get: {
        operationId: 'getJobTranscript',
        tags: tags(TAGS.jobs),
        summary: 'Download the transcript of an STT job',
        description: 'The transcript of a succeeded speech-to-text job, in the format asked for.',
        parameters: [jobIdParameter, ...TRANSCRIPT_QUERY_PARAMETERS],
        responses: {
          '200': transcriptResponse,
          '404': errorResponse(
            'JOB_NOT_FOUND: no such Local API job; OUTPUT_NOT_FOUND: its transcript is gone from the data directory.',
          ),
          '409': errorResponse(
            'JOB_NOT_COMPLETED: the job has not succeeded; WRONG_JOB_KIND: it is a text-to-speech job.',
          ),
          '422': errorResponse(
            'INVALID_REQUEST: the format is not one of txt, srt, vtt, json-simple, json-full, or a subtitle style parameter is out of range or given with another format than srt or vtt.',
          ),
          ...everyLocalOperation,
        },
      },
    },
  };
}

export function lexiconPaths() {
  return {
    '/lexicon': {
      get: {
        operationId: 'getLexicon',
        tags: tags(TAGS.lexicon),
        summary: 'Get the pronunciation lexicon',
        description: 'The lexicon as last PUT; `{ "entries": [] }` when there is none.',
        responses: {
          '200': { description: 'The lexicon.', content: jsonContent(lexiconSchemas.Lexicon) },
          ...everyLocalOperation,
        },
      },
      put: {
        operationId: 'putLexicon',
        tags: tags(TAGS.lexicon),
        summary: 'Replace the pronunciation lexicon',
        description:
          'Replaces the whole lexicon. Every TTS job created afterwards applies its entries to the text before synthesis ' +
          '(queued jobs keep the entries they were created with): whole words, case-insensitive unless `caseSensitive`, ' +
          "only for jobs in the entry's `language` when it has one, longer entries first. `say` is a respelling every " +
          'engine speaks; `phonemes` (`alphabet: "espeak"`) are espeak-ng phoneme mnemonics, spoken as written by ' +
          'espeak-ng voices; other engines speak `say` instead, or leave the word and list the entry in the job ' +
          "result's `lexicon.skipped`. The TTS request itself does not change.",
        requestBody: { required: true, content: jsonContent(lexiconSchemas.Lexicon) },
        responses: {
          '200': { description: 'The lexicon as stored.', content: jsonContent(lexiconSchemas.Lexicon) },
          '422': errorResponse(
            'INVALID_REQUEST: the document is not a valid lexicon; the message names the entry, e.g. `entries[3].text: …`.',
          ),
          ...everyLocalOperation,
        },
      },
    },
  };
}

/** A JSON-RPC error, as the MCP transport answers a message it cannot take. */
const jsonRpcError = {
  description: 'A JSON-RPC error from the MCP transport.',
  content: jsonContent({
    type: 'object',
    required: ['jsonrpc', 'error'],
    properties: {
      jsonrpc: { const: '2.0' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer' }, message: { type: 'string' } },
      },
      id: { type: ['string', 'integer', 'null'] },
    },
  }),
} as const;

export function mcpPaths() {
  return {
    '/mcp': {
      post: {
        operationId: 'callMcp',
        tags: tags(TAGS.mcp),
        summary: 'Send a Model Context Protocol message',
        description:
          'Model Context Protocol over Streamable HTTP, stateless (no session): the tools list_voices, narrate, transcribe and read_job. ' +
          'Send a JSON-RPC message with Accept: application/json, text/event-stream. GET and DELETE answer 405.',
        requestBody: {
          required: true,
          content: jsonContent({ type: 'object', description: 'A JSON-RPC 2.0 message (or a batch of them).' }),
        },
        responses: {
          '200': {
            description: 'The JSON-RPC answer.',
            content: { ...jsonContent({ type: 'object' }), 'text/event-stream': { schema: { type: 'string' } } },
          },
          '202': { description: 'A notification or a response was accepted; there is no answer.' },
          '400': { ...jsonRpcError, description: 'The body is not a JSON-RPC message the server takes.' },
          '406': {
            ...jsonRpcError,
            description: 'The Accept header does not take both application/json and text/event-stream.',
          },
          '422': responseRef('InvalidRequest'),
          ...everyLocalOperation,
        },
      },
    },
  };
}
