/**
 * The JSON Schemas of the OpenAPI document (`components.schemas`): requests, the Job with its TTS and STT
 * results, voices, transcripts and the error body. The server validates requests with these very objects.
 */
import { ERROR_STATUS } from './errors';
import { lexiconSchemas } from './lexicon-schema';

export const SAMPLE_RATES = [16000, 22050, 24000, 32000, 44100, 48000] as const;
export const BITRATES = [64, 96, 128, 192, 256, 320] as const;
export const OUTPUT_FORMATS = ['wav', 'mp3', 'aac', 'flac'] as const;
export const AUDIO_MEDIA_TYPES = ['audio/wav', 'audio/mpeg', 'audio/aac', 'audio/flac'] as const;
export const TRANSCRIPT_FORMATS = ['txt', 'srt', 'vtt', 'json-simple', 'json-full'] as const;
/** The media types of the transcript formats (json-simple and json-full are both JSON). */
export const TRANSCRIPT_MEDIA_TYPES = ['text/plain', 'application/x-subrip', 'text/vtt', 'application/json'] as const;
export const JOB_STATUSES = [
  'queued',
  'loading_model',
  'processing',
  'succeeded',
  'failed',
  'cancelled',
  'interrupted',
] as const;
export const MAX_TTS_TEXT = 100_000;
/** The speaking rate every door accepts (a TTS job's `speed`, Read Aloud, MCP); the OpenAI door clamps into it. */
export const TTS_SPEED = { min: 0.5, max: 2 } as const;

export const uuid = { type: 'string', format: 'uuid' } as const;
export const ref = <N extends string>(name: N) => ({ $ref: `#/components/schemas/${name}` }) as const;
const nullable = <T extends string>(type: T) => ({ type: [type, 'null'] }) as const;
const integer = { type: 'integer' } as const;
const number = { type: 'number' } as const;
const string = { type: 'string' } as const;
const languageCode = {
  type: 'string',
  minLength: 1,
  maxLength: 35,
  pattern: '^[A-Za-z0-9-]+$',
  default: 'auto',
} as const;

const ttsRequest = {
  type: 'object',
  description: 'What to say, with which voice, in which audio format. Only these fields are accepted.',
  additionalProperties: false,
  required: ['voiceId', 'text'],
  properties: {
    voiceId: { ...uuid, description: 'A voice from GET /voices that is ready.' },
    text: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_TTS_TEXT,
      description: 'The text, or SRT/VTT subtitles when inputFormat says so.',
    },
    language: { ...languageCode, description: "Language code; auto: the voice's language." },
    inputFormat: { type: 'string', enum: ['txt', 'srt', 'vtt'], default: 'txt' },
    outputFormat: { type: 'string', enum: OUTPUT_FORMATS, default: 'wav' },
    sampleRate: { type: 'integer', enum: SAMPLE_RATES, default: 24000 },
    bitrateKbps: { type: ['integer', 'null'], enum: [...BITRATES, null], default: 128 },
    audioChannels: { type: 'string', enum: ['mono', 'stereo'], default: 'mono' },
    steps: { type: 'integer', minimum: 8, maximum: 64, default: 32 },
    guidanceScale: { type: 'number', minimum: 0.5, maximum: 5, default: 2 },
    speed: { type: 'number', minimum: TTS_SPEED.min, maximum: TTS_SPEED.max, default: 1 },
    duration: {
      type: ['number', 'null'],
      exclusiveMinimum: 0,
      default: null,
      description: 'Target length in seconds.',
    },
    denoise: { type: 'boolean', default: true },
    preprocessPrompt: { type: 'boolean', default: true },
    postprocessOutput: { type: 'boolean', default: true },
    trimSilence: { type: 'boolean', default: true },
  },
} as const;

/**
 * The parts of the multipart STT request. `file` is the media part, streamed to disk, not validated here;
 * number fields are decimal numbers written out (`2.5`), never `0x10` or `Infinity`.
 */
const sttRequest = {
  type: 'object',
  description: 'The media to transcribe and how. Only these parts are accepted.',
  additionalProperties: false,
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      contentMediaType: 'application/octet-stream',
      description: 'The media (WAV, MP3, FLAC, OGG, AAC, M4A, MP4 or WEBM), at most 512 MB, sent as a file part.',
    },
    language: { ...languageCode, description: 'Language code, or auto to detect it.' },
    punctuation: { type: 'boolean', default: true },
    cropStartSeconds: { type: 'number', minimum: 0, description: 'Start of the part to transcribe, in seconds.' },
    cropEndSeconds: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'End of the part to transcribe, in seconds; after cropStartSeconds.',
    },
    diarizationEnabled: { type: 'boolean', default: true },
    speakerCountMode: { type: 'string', enum: ['auto', 'exact'], default: 'auto' },
    speakerCount: {
      type: 'integer',
      minimum: 1,
      maximum: 32,
      description: 'Required when speakerCountMode is exact, refused otherwise.',
    },
  },
} as const;

/** POST /align/jobs: the media, the text to time, and how (no recognizer is involved). */
const alignRequest = {
  type: 'object',
  description: 'The media and the script or subtitles to time to it. Only these parts are accepted.',
  additionalProperties: false,
  required: ['file', 'script'],
  properties: {
    file: sttRequest.properties.file,
    script: {
      type: 'string',
      format: 'binary',
      contentMediaType: 'text/plain',
      description:
        'The text to time, sent as a file part of at most 5 MB named .txt (one cue a line), .md (one cue a paragraph), .srt, .vtt, .ass, .ssa, .ttml, .dfxp or .sbv (text kept, times redone); UTF-8.',
    },
    language: {
      ...languageCode,
      description:
        'The language spoken, for the espeak-ng voice that reads the script; auto (the default) reads it as English.',
    },
    cropStartSeconds: {
      type: 'number',
      minimum: 0,
      description: 'Start of the part of the media to align to, in seconds.',
    },
    cropEndSeconds: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'End of the part of the media to align to, in seconds; after cropStartSeconds.',
    },
  },
} as const;

const cueReport = {
  type: 'object',
  required: [
    'index',
    'start',
    'end',
    'speaker',
    'slotSeconds',
    'speechSeconds',
    'speedFactor',
    'placedStart',
    'placedEnd',
    'borrowedSeconds',
    'overran',
    'overrunSeconds',
  ],
  properties: {
    index: integer,
    start: number,
    end: number,
    speaker: nullable('string'),
    slotSeconds: number,
    speechSeconds: number,
    speedFactor: { type: 'number', description: 'Extra speed-up applied to fit the cue (1: none).' },
    placedStart: number,
    placedEnd: number,
    borrowedSeconds: number,
    overran: { type: 'boolean' },
    overrunSeconds: number,
  },
} as const;

/** `result` of a succeeded TTS job (src/engine/tts/run-tts.ts); the first six members are the decisions' minimum. */
const ttsResult = {
  type: 'object',
  description: 'The result of a succeeded text-to-speech job.',
  required: ['mediaType', 'outputFormat', 'sampleRate', 'audioChannels', 'durationSeconds', 'bytes'],
  properties: {
    mediaType: { type: 'string', enum: AUDIO_MEDIA_TYPES },
    outputFormat: { type: 'string', enum: OUTPUT_FORMATS },
    sampleRate: { type: 'integer', enum: SAMPLE_RATES },
    audioChannels: { type: 'string', enum: ['mono', 'stereo'] },
    durationSeconds: { type: 'number', minimum: 0 },
    bytes: { type: 'integer', minimum: 0 },
    characters: { ...integer, description: 'Code points of the text read.' },
    chunks: { ...integer, description: 'Pieces the text was synthesized in.' },
    bitrateKbps: { type: ['integer', 'null'], description: 'null for the lossless formats.' },
    voice: {
      type: 'object',
      required: ['name', 'engine', 'languageCode'],
      properties: { name: string, engine: string, languageCode: string },
    },
    language: { ...string, description: 'The language spoken.' },
    speed: {
      type: 'object',
      required: ['value', 'method'],
      properties: { value: number, method: { type: 'string', enum: ['engine-rate', 'time-stretch'] } },
    },
    duration: {
      type: ['object', 'null'],
      description: 'How close the speech came to the `duration` asked for; null when none was.',
      required: ['targetSeconds', 'naturalSeconds', 'stretchFactor', 'reachedTarget', 'achievedSeconds'],
      properties: {
        targetSeconds: number,
        naturalSeconds: number,
        stretchFactor: number,
        reachedTarget: { type: 'boolean' },
        achievedSeconds: number,
      },
    },
    loudness: {
      type: ['object', 'null'],
      description: 'The loudness normalization; null when postprocessOutput is off.',
      required: ['targetLufs', 'measuredLufs', 'gainDb', 'peakCeilingDbfs'],
      properties: {
        targetLufs: number,
        measuredLufs: nullable('number'),
        gainDb: number,
        peakCeilingDbfs: number,
        measuredOn: {
          type: 'string',
          enum: ['first-chunk'],
          description: 'Streamed speech only: the gain was set from the first sentence, not the whole text.',
        },
      },
    },
    live: {
      type: 'boolean',
      description: 'Streamed speech (the OpenAI-compatible route): the audio was written as it was made.',
    },
    cues: { type: 'array', items: cueReport, description: 'Subtitle narrations only: how each cue fitted its time.' },
    overranCues: { ...integer, description: 'Subtitle narrations only: cues whose speech overran their time.' },
    lexicon: {
      ...ref('LexiconReport'),
      description: 'Only when lexicon entries matched the text: which were applied, which the engine could not speak.',
    },
    ignoredOptions: {
      type: 'object',
      additionalProperties: string,
      description: 'Request options the voice could not use, each with the reason.',
    },
  },
} as const;

/** `result` of a succeeded STT job (src/engine/stt/run-stt.ts). */
const sttResult = {
  type: 'object',
  description: 'The result of a succeeded speech-to-text job; the transcript itself is at GET /jobs/{id}/transcript.',
  required: ['language', 'durationSeconds', 'segmentCount', 'speakerCount', 'transcriptFormats'],
  properties: {
    language: { ...string, description: 'The language transcribed: the one asked for, or the one detected.' },
    durationSeconds: { type: 'number', minimum: 0 },
    segmentCount: { type: 'integer', minimum: 0 },
    speakerCount: { type: ['integer', 'null'], description: 'null when diarization did not run.' },
    transcriptFormats: { type: 'array', items: { type: 'string', enum: TRANSCRIPT_FORMATS } },
    model: { ...string, description: 'File name of the whisper model used.' },
    languageNote: {
      ...string,
      description:
        'Why `language` is not what was asked: with `auto`, an English-only model cannot detect a language and transcribes English.',
    },
    whisper: {
      type: 'object',
      description:
        "What whisper was given beyond the request's options (the OpenAI-compatible routes); only when something was.",
      required: ['prompt', 'task', 'temperature'],
      properties: {
        prompt: {
          type: 'boolean',
          description: 'Whether an initial prompt was given (the prompt itself is not kept here).',
        },
        task: { type: 'string', enum: ['transcribe', 'translate'] },
        temperature: { type: 'number', minimum: 0, maximum: 1 },
      },
    },
    aligned: {
      type: 'boolean',
      enum: [true],
      description:
        "Present on alignment jobs (POST /align/jobs): the script's text was timed to the media, not recognized.",
    },
    matchedCues: {
      type: 'integer',
      minimum: 0,
      description: "Alignment: how many of the script's lines, paragraphs or cues were found in the media.",
    },
    unmatchedCues: {
      type: 'array',
      description:
        "Alignment: the script's units not found in the media (left out of the transcript), numbered from 1.",
      items: {
        type: 'object',
        required: ['index', 'text'],
        properties: { index: { type: 'integer', minimum: 1 }, text: string },
      },
    },
    refinedBy: {
      type: 'object',
      description:
        "Alignment: present when an installed whisper model refined the aligned times. Cue texts, counts and order are the aligner's; a cue boundary or word start moved to the recognizer's time only where its word agreed with the script's, and by at most 0.3 s.",
      required: ['recognizer', 'model', 'movedBoundaries', 'agreedWords'],
      properties: {
        recognizer: { type: 'string', enum: ['whisper.cpp'] },
        model: { ...string, description: 'File name of the whisper model.' },
        movedBoundaries: {
          type: 'integer',
          minimum: 0,
          description: "Cue starts and ends moved to the recognizer's time.",
        },
        agreedWords: { type: 'integer', minimum: 0, description: 'Script words the recognizer heard as written.' },
      },
    },
  },
} as const;

const millis = (description: string) => ({ type: 'integer', format: 'int64', description }) as const;

const job = {
  type: 'object',
  description:
    'An asynchronous TTS or STT job. Poll it until its status is succeeded, failed, cancelled or interrupted.',
  required: ['id', 'name', 'kind', 'status', 'progress', 'createdAt'],
  properties: {
    id: uuid,
    name: { type: 'string' },
    kind: { type: 'string', enum: ['tts', 'stt'] },
    status: { type: 'string', enum: JOB_STATUSES },
    progress: { type: 'number', minimum: 0, maximum: 100 },
    phase: {
      type: ['string', 'null'],
      description: 'What the job is doing, in one word (decoding, transcribing, synthesizing, …).',
    },
    backend: { type: ['string', 'null'], description: 'The engine that runs the job, e.g. whisper.cpp, espeak-ng.' },
    result: {
      description: 'null until the job succeeds; then the TTS or the STT result, by `kind`.',
      oneOf: [ref('TtsResult'), ref('SttResult'), { type: 'null' }],
    },
    error: { type: ['string', 'null'], description: 'Why a failed job failed, in a sentence.' },
    createdAt: millis('Milliseconds since the Unix epoch.'),
    startedAt: { ...millis('Milliseconds since the Unix epoch; null until it starts.'), type: ['integer', 'null'] },
    finishedAt: { ...millis('Milliseconds since the Unix epoch; null until it ends.'), type: ['integer', 'null'] },
  },
} as const;

const voiceAccess = {
  type: 'object',
  description: 'Whether and under which license the account may use the voice.',
  required: ['scope', 'canUse', 'license'],
  properties: {
    scope: { type: 'string', enum: ['builtin', 'personal', 'shared'] },
    canUse: { type: 'boolean' },
    license: { type: 'string', description: "SPDX identifier or name of the voice's license." },
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
    access: ref('VoiceAccess'),
  },
} as const;

const segment = {
  type: 'object',
  required: ['start', 'end', 'text'],
  properties: {
    start: number,
    end: number,
    text: string,
    speaker: { ...string, description: 'Speaker N, when diarized.' },
  },
} as const;

const simpleTranscript = {
  type: 'object',
  description: 'The json-simple transcript; times are seconds from the start of the original media.',
  required: ['text', 'language', 'durationSeconds', 'segments'],
  properties: { text: string, language: string, durationSeconds: number, segments: { type: 'array', items: segment } },
} as const;

const fullTranscript = {
  type: 'object',
  description:
    'The json-full transcript: json-simple plus words, speakers, the options used, the backend and the model.',
  required: ['text', 'language', 'durationSeconds', 'segments', 'speakers', 'options', 'backend', 'model'],
  properties: {
    text: string,
    language: string,
    durationSeconds: number,
    segments: {
      type: 'array',
      items: {
        type: 'object',
        required: [...segment.required, 'words'],
        properties: {
          ...segment.properties,
          words: {
            type: 'array',
            items: {
              type: 'object',
              required: ['start', 'end', 'text', 'probability'],
              properties: {
                start: number,
                end: number,
                text: string,
                probability: nullable('number'),
                speaker: string,
                timing: {
                  type: 'string',
                  enum: ['estimated'],
                  description: 'Present when the recognizer gave this word no time of its own.',
                },
              },
            },
          },
        },
      },
    },
    speakers: {
      type: ['array', 'null'],
      items: string,
      description: 'Speaker labels in order of appearance; null without diarization.',
    },
    options: { type: 'object', description: 'The STT options the job ran with.' },
    backend: string,
    model: string,
    wordTiming: {
      type: 'string',
      enum: ['recognizer', 'estimated', 'mixed', 'aligned'],
      description: 'Where the word times come from (`aligned`: a script timed by forced alignment).',
    },
  },
} as const;

const errorBody = {
  type: 'object',
  description: 'Every error answer: a code from the error registry and a sentence a person can act on.',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        message: { type: 'string' },
        feature: { type: 'string', description: 'ENTITLEMENT_REQUIRED: the feature the account lacks.' },
        maxConcurrentJobs: { type: 'integer', description: "CONCURRENCY_LIMIT (Remote API): the key's limit." },
      },
    },
  },
} as const;

export const schemas = {
  Job: job,
  TtsResult: ttsResult,
  SttResult: sttResult,
  Voice: voice,
  VoiceAccess: voiceAccess,
  VoicePage: {
    type: 'object',
    required: ['items', 'meta'],
    properties: {
      items: { type: 'array', items: ref('Voice') },
      meta: {
        type: 'object',
        required: ['page', 'limit', 'total', 'totalPages'],
        properties: { page: integer, limit: integer, total: integer, totalPages: integer },
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
        properties: {
          ttsInstalled: { type: 'boolean' },
          sttInstalled: { type: 'boolean' },
          sttModels: {
            type: 'array',
            description:
              'The installed speech-to-text models. `languages`: codes the model covers (`mul`: any language whisper knows); `default`: the model a job in `auto` runs on (a named language may choose another, e.g. Parakeet for its languages).',
            items: {
              type: 'object',
              required: ['name', 'engine', 'languages', 'default'],
              properties: {
                name: { type: 'string' },
                engine: { type: 'string', enum: ['whisper.cpp', 'parakeet'] },
                languages: { type: 'array', items: { type: 'string' } },
                default: { type: 'boolean' },
              },
            },
          },
        },
      },
      ffmpeg: {
        type: 'object',
        description:
          "The ffmpeg that decodes uploads and encodes mp3, aac, flac and opus: the system's, or the WebAssembly build shipped with the product when none is installed (slower).",
        required: ['kind', 'version', 'description'],
        properties: {
          kind: { type: 'string', enum: ['system', 'webassembly'] },
          path: { type: 'string', description: 'The system ffmpeg executable.' },
          version: { type: ['string', 'null'] },
          description: { type: 'string', examples: ['system /usr/bin/ffmpeg 5.1.8', 'webassembly 5.1.4'] },
        },
      },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'service', 'apiVersion'],
    properties: {
      status: { type: 'string', const: 'ok' },
      service: { type: 'string', const: 'studio-local-api' },
      apiVersion: { type: 'string', const: 'v1' },
    },
  },
  SimpleTranscript: simpleTranscript,
  FullTranscript: fullTranscript,
  Error: errorBody,
  TtsRequest: ttsRequest,
  SttRequest: sttRequest,
  AlignRequest: alignRequest,
  LexiconReport: lexiconSchemas.LexiconReport,
} as const;
