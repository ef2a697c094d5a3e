/**
 * The OpenAPI 3.1 paths of the OpenAI-compatible audio routes (tagged `OpenAI-compatible`, request schemas
 * after OpenAI's published reference), with their error schema and shared responses: these routes answer
 * errors in OpenAI's shape (src/openai/errors.ts), except 408 and 431, which the HTTP layer answers
 * before any route is known. Merged into the served document by openapi.ts; the OpenAI door compiles its
 * request validators from the schemas here.
 */
import { bearerChallengeHeader, jsonContent, responseRef, retryAfterHeader } from './openapi-responses';
import { ref } from './openapi-schemas';

/** The Local API's text limit (MAX_TTS_TEXT of openapi.ts, which imports this module). */
const MAX_TTS_TEXT = 100_000;

export const OPENAI_TAG = 'OpenAI-compatible';
export const OPENAI_TAG_OBJECT = {
  name: OPENAI_TAG,
  description:
    "The OpenAI audio API on this machine (speech, transcriptions, translations, models), for the OpenAI SDKs: each call runs as a Local API job; errors come in OpenAI's shape with our code in `code`.",
} as const;
export const OPENAI_SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const OPENAI_TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;

export type OpenAiSpeechFormat = (typeof OPENAI_SPEECH_FORMATS)[number];
export type OpenAiTranscriptFormat = (typeof OPENAI_TRANSCRIPT_FORMATS)[number];

/** POST /audio/speech. Fields OpenAI defines that we cannot honour are accepted and reported (see the door). */
export const openAiSpeechRequest = {
  type: 'object',
  required: ['model', 'input', 'voice'],
  properties: {
    model: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        '`tts-1`, `tts-1-hd`, `gpt-4o-mini-tts` or an engine name: `espeak-ng`, `flite`, `svox-pico`, `sherpa-onnx`.',
    },
    input: { type: 'string', minLength: 1, maxLength: MAX_TTS_TEXT },
    voice: {
      description: 'An OpenAI voice name (mapped to a ready voice), or one of our voice ids or exact voice names.',
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 200 },
        { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } },
      ],
    },
    instructions: {
      type: 'string',
      maxLength: 100_000,
      description: 'Accepted and ignored (the X-Speech-Studio-Ignored header says so).',
    },
    response_format: { type: 'string', enum: OPENAI_SPEECH_FORMATS, default: 'mp3' },
    speed: {
      type: 'number',
      minimum: 0.25,
      maximum: 4,
      default: 1,
      description: "Clamped to 0.5–2, our engines' range.",
    },
    stream_format: { type: 'string', enum: ['audio', 'sse'], default: 'audio' },
  },
} as const;

/** The text fields of POST /audio/transcriptions and /audio/translations (multipart, beside `file`). */
export const openAiTranscriptionFields = {
  type: 'object',
  required: ['model'],
  properties: {
    model: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        '`whisper-1`, any `*transcribe*` model name (the default model), or the file name or catalog id of an installed whisper or Parakeet model (see GET /models). A Parakeet model takes no `prompt` or `temperature`, does not translate and covers its own languages: such requests are refused with 422 naming the field.',
    },
    language: { type: 'string', minLength: 1, maxLength: 35, pattern: '^[A-Za-z0-9-]+$' },
    prompt: { type: 'string', maxLength: 1024, description: "whisper's initial prompt." },
    response_format: { type: 'string', enum: OPENAI_TRANSCRIPT_FORMATS, default: 'json' },
    temperature: { type: 'number', minimum: 0, maximum: 1, default: 0 },
    'timestamp_granularities[]': { type: 'array', items: { type: 'string', enum: ['word', 'segment'] }, maxItems: 2 },
    stream: { type: 'boolean', default: false },
    'known_speaker_names[]': {
      type: 'array',
      maxItems: 4,
      items: { type: 'string', minLength: 1, maxLength: 64 },
      description:
        'With `response_format=diarized_json`: the names of up to 4 speakers, each with a reference clip in `known_speaker_references[]` at the same position.',
    },
    'known_speaker_references[]': {
      type: 'array',
      maxItems: 4,
      items: {
        type: 'string',
        maxLength: 3_000_000,
        pattern: '^data:audio/[A-Za-z0-9.+-]+;base64,[A-Za-z0-9+/]+={0,2}$',
      },
      description:
        'Audio data URLs (`data:audio/wav;base64,…`), 2 to 10 seconds of each known speaker; a diarized speaker whose voice matches one (cosine similarity of speaker embeddings ≥ 0.5) is labelled with its name, the others A, B, ….',
    },
  },
} as const;

/** OpenAI's error body; `code` is ours (the Local API's error codes). */
const openAiError = {
  type: 'object',
  description: "An error on the OpenAI-compatible routes, in OpenAI's shape; `code` is the Local API's error code.",
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'param', 'code'],
      properties: {
        message: { type: 'string' },
        type: {
          type: 'string',
          description:
            'authentication_error, permission_error, not_found_error, rate_limit_error, server_error or invalid_request_error.',
        },
        param: { type: ['string', 'null'], description: 'The request field at fault, when one is.' },
        code: { type: ['string', 'null'], description: 'Our error code (INVALID_REQUEST, QUEUE_FULL, …).' },
      },
    },
  },
} as const;

/** Component schemas of the OpenAI-compatible routes (merged into the document's by openapi.ts). */
export const openAiSchemas = { OpenAiError: openAiError } as const;

/** An error answer in OpenAI's shape; `description` names our codes and when they happen. */
const openAiErrorResponse = (description: string, headers?: Record<string, object>) =>
  ({ description, ...(headers ? { headers } : {}), content: jsonContent(ref('OpenAiError')) }) as const;

/** Reusable `components.responses` of the OpenAI-compatible routes (merged into the document's by openapi.ts). */
export const openAiResponses = {
  OpenAiUnauthorized: openAiErrorResponse(
    'AUTH_REQUIRED or INVALID_API_KEY (authentication_error): authentication is on and the Bearer key is missing, wrong or regenerated.',
    bearerChallengeHeader,
  ),
  OpenAiEntitlementRequired: openAiErrorResponse(
    'ENTITLEMENT_REQUIRED (permission_error): the account lacks the feature (app_connection, tts or stt).',
  ),
  OpenAiForbidden: openAiErrorResponse(
    "ORIGIN_NOT_ALLOWED or HOST_NOT_ALLOWED (permission_error): the request came from a web page, or named another Host than this machine's loopback name.",
  ),
  OpenAiInternalError: openAiErrorResponse(
    'INTERNAL_ERROR (server_error): something unexpected failed; the message says what.',
  ),
  OpenAiUnavailable: openAiErrorResponse(
    'LOCAL_API_DISABLED (server_error): the Local API is switched off in the settings.',
  ),
  OpenAiInvalidRequest: openAiErrorResponse(
    'INVALID_REQUEST (invalid_request_error): the body or a field is invalid; `param` names the field.',
  ),
  OpenAiQueueFull: openAiErrorResponse(
    'QUEUE_FULL (rate_limit_error): too many Local API jobs are waiting or running.',
    retryAfterHeader,
  ),
} as const;

/** The answers every OpenAI-compatible operation can give besides its own (the middleware's, in OpenAI's shape). */
const everyOpenAiOperation = {
  '401': responseRef('OpenAiUnauthorized'),
  '402': responseRef('OpenAiEntitlementRequired'),
  '403': responseRef('OpenAiForbidden'),
  // Answered by the HTTP layer before the route is known: the Local API's error body.
  '408': responseRef('RequestTimeout'),
  '431': responseRef('HeadersTooLarge'),
  '500': responseRef('OpenAiInternalError'),
  '503': responseRef('OpenAiUnavailable'),
} as const;

const tags = [OPENAI_TAG];

const transcriptionResponses = {
  '200': {
    description:
      '`json`: { text }; `verbose_json`: { task, language, duration, text, segments, words?, timing }; `text`, `srt`, `vtt`: the text; `stream=true`: SSE `transcript.text.delta` then `transcript.text.done`.',
    headers: {
      'X-Speech-Studio-Job-Id': {
        description: 'The Local API job that did the work.',
        schema: { type: 'string', format: 'uuid' },
      },
      'X-Speech-Studio-Ignored': {
        description: 'The OpenAI fields accepted but not honoured, when there are any.',
        schema: { type: 'string' },
      },
    },
    content: {
      'application/json': { schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
      'text/plain': { schema: { type: 'string' } },
      'text/event-stream': { schema: { type: 'string' } },
    },
  },
  '409': openAiErrorResponse('MODEL_NOT_INSTALLED: no whisper model is installed (or none serves the language).'),
  '413': openAiErrorResponse('FILE_TOO_LARGE: the file is larger than the upload limit.'),
  '422': responseRef('OpenAiInvalidRequest'),
  '429': responseRef('OpenAiQueueFull'),
  ...everyOpenAiOperation,
};

const transcriptionBody = (translation: boolean) => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file', 'model'],
        properties: {
          file: { type: 'string', contentMediaType: 'application/octet-stream' },
          ...(translation
            ? (({ language: _l, 'timestamp_granularities[]': _t, stream: _s, ...rest }) => rest)(
                openAiTranscriptionFields.properties,
              )
            : openAiTranscriptionFields.properties),
        },
      },
    },
  },
});

const modelObject = {
  type: 'object',
  required: ['id', 'object', 'created', 'owned_by'],
  properties: {
    id: { type: 'string' },
    object: { const: 'model' },
    created: { type: 'integer' },
    owned_by: { type: 'string' },
  },
} as const;

export const openAiPaths = {
  '/audio/speech': {
    post: {
      tags,
      operationId: 'openAiCreateSpeech',
      summary: 'Speak a text (OpenAI-compatible)',
      description:
        'Runs as a Local API job (X-Speech-Studio-Job-Id header) and streams the audio as it is synthesized. A client that disconnects cancels the job. Fields we cannot honour are accepted and named in X-Speech-Studio-Ignored.',
      requestBody: { required: true, content: { 'application/json': { schema: openAiSpeechRequest } } },
      responses: {
        '200': {
          description:
            'The audio, chunked as it is made; `pcm` is 24 kHz 16-bit mono little-endian; `stream_format: "sse"` sends `speech.audio.delta` and `speech.audio.done` events.',
          headers: {
            'X-Speech-Studio-Job-Id': {
              description: 'The Local API job that speaks the text.',
              schema: { type: 'string', format: 'uuid' },
            },
            'X-Speech-Studio-Ignored': {
              description: 'The OpenAI fields accepted but not honoured, when there are any.',
              schema: { type: 'string' },
            },
          },
          content: Object.fromEntries(
            ['audio/mpeg', 'audio/ogg', 'audio/aac', 'audio/flac', 'audio/wav', 'audio/pcm', 'text/event-stream'].map(
              (type) => [type, { schema: { type: 'string' } }],
            ),
          ),
        },
        '409': openAiErrorResponse('VOICE_NOT_READY: the voice is not installed or not usable yet.'),
        '422': responseRef('OpenAiInvalidRequest'),
        '429': responseRef('OpenAiQueueFull'),
        ...everyOpenAiOperation,
      },
    },
  },
  '/audio/transcriptions': {
    post: {
      tags,
      operationId: 'openAiCreateTranscription',
      summary: 'Transcribe audio (OpenAI-compatible)',
      description:
        'Uploads the media and transcribes it with whisper as a Local API job, then answers the transcript in the asked `response_format` (or streams it with `stream=true`). `prompt` and `temperature` go to whisper.',
      requestBody: transcriptionBody(false),
      responses: transcriptionResponses,
    },
  },
  '/audio/translations': {
    post: {
      tags,
      operationId: 'openAiCreateTranslation',
      summary: 'Translate audio into English text (OpenAI-compatible)',
      description:
        'Uploads the media and has whisper translate its speech into English, as a Local API job; answers like POST /audio/transcriptions.',
      requestBody: transcriptionBody(true),
      responses: transcriptionResponses,
    },
  },
  '/models': {
    get: {
      tags,
      operationId: 'openAiListModels',
      summary: 'List the models (OpenAI-compatible)',
      description:
        'The installed whisper models, the TTS engines with ready voices, and the OpenAI model names they answer to.',
      responses: {
        '200': {
          description: 'The models.',
          content: jsonContent({
            type: 'object',
            required: ['object', 'data'],
            properties: { object: { const: 'list' }, data: { type: 'array', items: modelObject } },
          }),
        },
        ...everyOpenAiOperation,
      },
    },
  },
  '/models/{id}': {
    get: {
      tags,
      operationId: 'openAiRetrieveModel',
      summary: 'Get a model (OpenAI-compatible)',
      description: 'One model of GET /models, by its id.',
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'The model id.', schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'The model.', content: jsonContent(modelObject) },
        '404': openAiErrorResponse('NOT_FOUND (not_found_error): no model has this id.'),
        ...everyOpenAiOperation,
      },
    },
  },
} as const;
