/**
 * The OpenAPI paths of live transcription (`GET /realtime`, a WebSocket upgrade speaking OpenAI's Realtime
 * transcription events) and of the enrolled speakers (`GET /speakers`, read-only): our extensions beside the
 * seed contract, each on its own route.
 */
import { errorResponse, everyLocalOperation, jsonContent } from './openapi-responses';

export const LIVE_TAG = {
  name: 'Live transcription and speakers',
  description:
    "Live transcription over OpenAI's Realtime protocol (a WebSocket), and the speakers whose voices transcripts name.",
} as const;

const KnownSpeaker = {
  type: 'object',
  required: ['name', 'model', 'speechSeconds', 'addedAt'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64, description: 'The name transcripts give this speaker.' },
    model: {
      type: 'string',
      description: 'The speaker-embedding model the voice was computed with; only its voices are compared.',
    },
    speechSeconds: { type: 'number', minimum: 0, description: 'Seconds of speech the voice was computed from.' },
    addedAt: {
      type: 'string',
      description: 'When it was enrolled, as an ISO 8601 date and time (2026-11-26T21:30:00.000Z).',
    },
  },
} as const;

// Inline, not in components: the Remote API reuses the Local API's components and has neither route.
const RealtimeEndpoint = {
  type: 'object',
  required: ['url', 'protocol', 'upgrade', 'message'],
  description: 'What a plain GET (without the WebSocket upgrade) answers: where and how to connect.',
  properties: {
    url: {
      type: 'string',
      description:
        'The WebSocket URL of a transcription session, e.g. ws://127.0.0.1:17860/v1/realtime?intent=transcription.',
    },
    protocol: { type: 'string' },
    upgrade: { const: 'websocket' },
    message: { type: 'string' },
  },
} as const;

const KnownSpeakers = {
  type: 'object',
  required: ['speakers'],
  properties: { speakers: { type: 'array', items: KnownSpeaker } },
} as const;

const REALTIME_DESCRIPTION = [
  "Upgrades to a WebSocket (`Connection: Upgrade`, `Upgrade: websocket`) that speaks OpenAI's Realtime transcription events:",
  'the client sends `session.update` (GA) or `transcription_session.update` (beta, header `OpenAI-Beta: realtime=v1`),',
  '`input_audio_buffer.append` / `.commit` / `.clear`; the server answers `session.created` / `.updated`,',
  '`input_audio_buffer.speech_started` / `.speech_stopped` / `.committed`, `conversation.item.input_audio_transcription.delta` /',
  "`.completed` / `.failed` and `error` events in OpenAI's shape. The upgrade passes the same checks as every request and is",
  'refused with the error body before any WebSocket exists. Past the session cap the socket opens, gets an `error` event',
  '(`session_limit_reached`) and closes with 1013. A plain GET without the upgrade answers 200 with where to connect. See docs/realtime.md.',
].join(' ');

export function livePaths() {
  return {
    '/realtime': {
      get: {
        operationId: 'openRealtimeTranscription',
        tags: [LIVE_TAG.name],
        summary: 'Open a live transcription session (WebSocket)',
        description: REALTIME_DESCRIPTION,
        parameters: [
          {
            name: 'intent',
            in: 'query',
            description: 'The session kind: this server runs transcription sessions only.',
            schema: { type: 'string', enum: ['transcription'] },
          },
          {
            name: 'model',
            in: 'query',
            description:
              'What the beta client sends instead of `intent`: an OpenAI transcription model name (whisper-1, gpt-4o-transcribe, …).',
            schema: { type: 'string', maxLength: 100 },
          },
        ],
        responses: {
          '101': {
            description:
              'Switching Protocols: the WebSocket is open and the session starts with `session.created` (beta: `transcription_session.created`).',
          },
          '200': {
            description: 'A plain GET, without the upgrade: where and how to connect.',
            content: jsonContent(RealtimeEndpoint),
          },
          '422': errorResponse(
            'INVALID_REQUEST: the upgrade asked for another intent than transcription (or, without `intent`, no transcription model).',
          ),
          ...everyLocalOperation,
        },
      },
    },
    '/speakers': {
      get: {
        operationId: 'listSpeakers',
        tags: [LIVE_TAG.name],
        summary: 'List the enrolled speakers',
        description:
          'The speakers enrolled on this machine (`speakers add` of the CLI, or Name This Speaker in the editor), without their voice ' +
          'embeddings. A diarized transcript names a speaker whose voice matches one of them. Read-only: enrolling is not part of this API.',
        responses: {
          '200': { description: 'The enrolled speakers.', content: jsonContent(KnownSpeakers) },
          ...everyLocalOperation,
        },
      },
    },
  };
}
