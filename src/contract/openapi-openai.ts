/**
 * The OpenAPI 3.1 paths of the doors beside the Local API: the OpenAI-compatible audio routes (tagged
 * `OpenAI-compatible`, request schemas after OpenAI's published reference), the live job events of the
 * native API and the MCP endpoint. Merged into the served document by openapi.ts; the OpenAI door compiles
 * its request validators from the schemas here.
 */
/** The Local API's text limit (MAX_TTS_TEXT of openapi.ts, which imports this module). */
const MAX_TTS_TEXT = 100_000;

export const OPENAI_TAG = 'OpenAI-compatible';
export const OPENAI_SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const OPENAI_TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;

export type OpenAiSpeechFormat = (typeof OPENAI_SPEECH_FORMATS)[number];
export type OpenAiTranscriptFormat = (typeof OPENAI_TRANSCRIPT_FORMATS)[number];

/** POST /audio/speech. Fields OpenAI defines that we cannot honour are accepted and reported (see the door). */
export const openAiSpeechRequest = {
  type: 'object',
  required: ['model', 'input', 'voice'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200, description: '`tts-1`, `tts-1-hd`, `gpt-4o-mini-tts` or an engine name: `espeak-ng`, `flite`, `svox-pico`, `sherpa-onnx`.' },
    input: { type: 'string', minLength: 1, maxLength: MAX_TTS_TEXT },
    voice: {
      description: "An OpenAI voice name (mapped to a ready voice), or one of our voice ids or exact voice names.",
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 200 },
        { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } },
      ],
    },
    instructions: { type: 'string', maxLength: 100_000, description: 'Accepted and ignored (the X-Speech-Studio-Ignored header says so).' },
    response_format: { type: 'string', enum: OPENAI_SPEECH_FORMATS, default: 'mp3' },
    speed: { type: 'number', minimum: 0.25, maximum: 4, default: 1, description: 'Clamped to 0.5–2, our engines\' range.' },
    stream_format: { type: 'string', enum: ['audio', 'sse'], default: 'audio' },
  },
} as const;

/** The text fields of POST /audio/transcriptions and /audio/translations (multipart, beside `file`). */
export const openAiTranscriptionFields = {
  type: 'object',
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200, description: '`whisper-1`, any `*transcribe*` model name, or the file name of an installed whisper model.' },
    language: { type: 'string', minLength: 1, maxLength: 35, pattern: '^[A-Za-z0-9-]+$' },
    prompt: { type: 'string', maxLength: 1024, description: "whisper's initial prompt." },
    response_format: { type: 'string', enum: OPENAI_TRANSCRIPT_FORMATS, default: 'json' },
    temperature: { type: 'number', minimum: 0, maximum: 1, default: 0 },
    'timestamp_granularities[]': { type: 'array', items: { type: 'string', enum: ['word', 'segment'] }, maxItems: 2 },
    stream: { type: 'boolean', default: false },
  },
} as const;

const openAiError = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'param', 'code'],
      properties: {
        message: { type: 'string' },
        type: { type: 'string' },
        param: { type: ['string', 'null'] },
        code: { type: ['string', 'null'], description: 'Our error code (INVALID_REQUEST, QUEUE_FULL, …).' },
      },
    },
  },
} as const;

const errors = (...statuses: string[]) =>
  Object.fromEntries(statuses.map((status) => [status, { description: 'OpenAI error shape; `code` is ours.', content: { 'application/json': { schema: openAiError } } }]));

const transcriptionResponse = {
  '200': {
    description: '`json`: { text }; `verbose_json`: { task, language, duration, text, segments, words?, timing }; `text`, `srt`, `vtt`: the text; `stream=true`: SSE `transcript.text.delta` then `transcript.text.done`.',
    content: {
      'application/json': { schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
      'text/plain': { schema: { type: 'string' } },
      'text/event-stream': { schema: { type: 'string' } },
    },
  },
  ...errors('401', '409', '413', '422', '429'),
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
            ? (({ language: _l, 'timestamp_granularities[]': _t, stream: _s, ...rest }) => rest)(openAiTranscriptionFields.properties)
            : openAiTranscriptionFields.properties),
        },
      },
    },
  },
});

const jobIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } } as const;

export const openAiPaths = {
  '/audio/speech': {
    post: {
      tags: [OPENAI_TAG],
      operationId: 'openAiCreateSpeech',
      description: 'Runs as a Local API job (X-Speech-Studio-Job-Id header) and streams the audio as it is synthesized. A client that disconnects cancels the job.',
      requestBody: { required: true, content: { 'application/json': { schema: openAiSpeechRequest } } },
      responses: {
        '200': {
          description: 'The audio, chunked as it is made; `pcm` is 24 kHz 16-bit mono little-endian; `stream_format: "sse"` sends `speech.audio.delta` and `speech.audio.done` events.',
          content: Object.fromEntries(
            ['audio/mpeg', 'audio/ogg', 'audio/aac', 'audio/flac', 'audio/wav', 'audio/pcm', 'text/event-stream'].map((type) => [type, { schema: { type: 'string' } }]),
          ),
        },
        ...errors('401', '409', '422', '429', '500'),
      },
    },
  },
  '/audio/transcriptions': {
    post: { tags: [OPENAI_TAG], operationId: 'openAiCreateTranscription', requestBody: transcriptionBody(false), responses: transcriptionResponse },
  },
  '/audio/translations': {
    post: { tags: [OPENAI_TAG], operationId: 'openAiCreateTranslation', requestBody: transcriptionBody(true), responses: transcriptionResponse },
  },
  '/models': {
    get: {
      tags: [OPENAI_TAG],
      operationId: 'openAiListModels',
      responses: {
        '200': {
          description: 'Installed whisper models, the TTS engines with ready voices, and the OpenAI names they answer to.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['object', 'data'],
                properties: {
                  object: { const: 'list' },
                  data: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['id', 'object', 'created', 'owned_by'],
                      properties: { id: { type: 'string' }, object: { const: 'model' }, created: { type: 'integer' }, owned_by: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
        ...errors('401'),
      },
    },
  },
  '/models/{id}': {
    get: {
      tags: [OPENAI_TAG],
      operationId: 'openAiRetrieveModel',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'One model object of GET /models.' }, ...errors('401', '404') },
    },
  },
  '/jobs/{id}/events': {
    get: {
      tags: ['Jobs'],
      operationId: 'getJobEvents',
      description: 'Server-Sent Events: `job` (the Job object) on every status, phase or progress change (progress at most 4 a second), `segment` for STT segments as recognized, the terminal `job` last, then the stream ends. Send Last-Event-ID to resume.',
      parameters: [jobIdParameter, { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        '404': { description: 'No such Local API job.' },
      },
    },
  },
  '/mcp': {
    post: {
      tags: ['MCP'],
      operationId: 'mcp',
      description: 'Model Context Protocol over Streamable HTTP (stateless): tools list_voices, narrate, transcribe, read_job.',
      responses: { '200': { description: 'A JSON-RPC answer (JSON or an SSE stream).' } },
    },
  },
} as const;
