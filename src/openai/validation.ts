/**
 * The OpenAI door's request validators, compiled once from the schemas of openapi-openai.ts with the same
 * ajv settings and error wording as the Local API's (contract/validation.ts).
 */
import Ajv2020 from 'ajv/dist/2020';
import {
  openAiSpeechRequest,
  openAiTranscriptionFields,
  type OpenAiSpeechFormat,
  type OpenAiTranscriptFormat,
} from '../contract/openapi-openai';
import { checkDecimalNumbers, describeError, type Validation } from '../contract/validation';

export interface OpenAiSpeechBody {
  model: string;
  input: string;
  voice: string | { id: string };
  instructions?: string;
  response_format: OpenAiSpeechFormat;
  speed: number;
  stream_format: 'audio' | 'sse';
  [other: string]: unknown;
}

export interface OpenAiTranscriptionBody {
  model: string;
  language?: string;
  prompt?: string;
  response_format: OpenAiTranscriptFormat;
  temperature: number;
  'timestamp_granularities[]'?: Array<'word' | 'segment'>;
  stream: boolean;
  'known_speaker_names[]'?: string[];
  'known_speaker_references[]'?: string[];
  [other: string]: unknown;
}

export interface OpenAiValidators {
  speech(body: unknown): Validation<OpenAiSpeechBody>;
  /** Form fields as received (repeated fields as arrays). */
  transcription(fields: Record<string, string | string[]>): Validation<OpenAiTranscriptionBody>;
}

export function compileOpenAiValidators(): OpenAiValidators {
  const json = new Ajv2020({ strict: true, allErrors: false, useDefaults: true, coerceTypes: false, verbose: true });
  const form = new Ajv2020({ strict: true, allErrors: false, useDefaults: true, coerceTypes: 'array', verbose: true });
  const speech = json.compile<OpenAiSpeechBody>(openAiSpeechRequest);
  const transcription = form.compile<OpenAiTranscriptionBody>(openAiTranscriptionFields);
  return {
    speech: (body) => {
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return { ok: false, message: 'body: must be a JSON object' };
      const data = { ...body };
      return speech(data)
        ? { ok: true, value: data }
        : { ok: false, message: describeError(speech.errors?.[0], 'body') };
    },
    transcription: (fields) => {
      // The native form's number rules: `Infinity`, `1e999` or `0x1` is no temperature.
      const numbers = checkDecimalNumbers(openAiTranscriptionFields.properties, fields);
      if (!numbers.ok) return numbers;
      const data = { ...fields };
      return transcription(data)
        ? { ok: true, value: data }
        : { ok: false, message: describeError(transcription.errors?.[0], 'field') };
    },
  };
}
