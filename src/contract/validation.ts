import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { openApiDocument, TRANSCRIPT_QUERY_PARAMETERS, VOICE_QUERY_PARAMETERS } from './openapi';
import type { SttOptions, TranscriptQuery, TtsRequest, VoiceQuery } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Validation<T> = { ok: true; value: T } | { ok: false; message: string };

export interface Validators {
  ttsRequest(body: unknown): Validation<TtsRequest>;
  sttOptions(fields: Record<string, string>): Validation<SttOptions>;
  voiceQuery(query: Record<string, unknown>): Validation<VoiceQuery>;
  transcriptQuery(query: Record<string, unknown>): Validation<TranscriptQuery>;
}

function newAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: false, useDefaults: true, coerceTypes, verbose: true });
  ajv.addFormat('uuid', UUID);
  return ajv;
}

type Parameter = { name: string; schema: object; required?: boolean };

function querySchema(parameters: readonly Parameter[]): object {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
  };
}

/** Compiles every request validator from the OpenAPI document, once, at start-up. */
export function compileValidators(): Validators {
  const json = newAjv(false);
  const form = newAjv(true);
  const schemas = openApiDocument.components.schemas;
  const { file: _file, ...sttFieldProperties } = schemas.SttRequest.properties;
  const sttFields = { ...schemas.SttRequest, required: [], properties: sttFieldProperties };

  const tts = json.compile<TtsRequest>(schemas.TtsRequest);
  const stt = form.compile<SttOptions>(sttFields);
  const voices = form.compile<VoiceQuery>(querySchema(VOICE_QUERY_PARAMETERS));
  const transcript = form.compile<TranscriptQuery>(querySchema(TRANSCRIPT_QUERY_PARAMETERS));

  return {
    ttsRequest: (body) => run(tts, structuredCopy(body), 'body'),
    sttOptions: (fields) => {
      const checked = run(stt, { ...fields }, 'field');
      return checked.ok ? checkSttCombination(checked.value) : checked;
    },
    voiceQuery: (query) => run(voices, { ...query }, 'query'),
    transcriptQuery: (query) => run(transcript, { ...query }, 'query'),
  };
}

function structuredCopy(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : value;
}

function run<T>(validate: ValidateFunction<T>, data: unknown, what: string): Validation<T> {
  if (validate(data)) return { ok: true, value: data };
  return { ok: false, message: describeError(validate.errors?.[0], what) };
}

function checkSttCombination(options: SttOptions): Validation<SttOptions> {
  const { cropStartSeconds: start, cropEndSeconds: end, speakerCountMode, speakerCount } = options;
  if (start !== undefined && end !== undefined && end <= start) {
    return { ok: false, message: 'cropEndSeconds: must be greater than cropStartSeconds' };
  }
  if (speakerCountMode === 'exact' && speakerCount === undefined) {
    return { ok: false, message: 'speakerCount: is required when speakerCountMode is exact' };
  }
  if (speakerCountMode !== 'exact' && speakerCount !== undefined) {
    return { ok: false, message: 'speakerCount: is only allowed when speakerCountMode is exact' };
  }
  return { ok: true, value: options };
}

/** Turns an ajv error into `field: what is wrong`, in words a person can act on. */
export function describeError(error: ErrorObject | undefined, what: string): string {
  if (!error) return `${what}: is invalid`;
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const field = path || what;
  switch (error.keyword) {
    case 'required':
      return `${(error.params as { missingProperty: string }).missingProperty}: is required`;
    case 'additionalProperties':
      return `${(error.params as { additionalProperty: string }).additionalProperty}: is not a known ${what === 'query' ? 'parameter' : 'field'}`;
    case 'type':
      if (!path) return `${what}: must be a JSON object`;
      return `${field}: must be ${[error.params.type].flat().join(' or ')}`;
    case 'minLength':
    case 'maxLength':
      return schema.minLength !== undefined && schema.maxLength !== undefined
        ? `${field}: must be ${schema.minLength} to ${schema.maxLength} characters`
        : `${field}: ${error.message}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field}: ${rangeWords(schema)}`;
    case 'enum':
      return `${field}: must be one of ${(schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'format':
      return `${field}: must be a ${error.params.format}`;
    case 'pattern':
      return `${field}: must be a language code such as en or en-US`;
    default:
      return `${field}: ${error.message ?? 'is invalid'}`;
  }
}

function rangeWords(schema: Record<string, unknown>): string {
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  if (low !== undefined && high !== undefined) return `must be from ${low} to ${high}`;
  if (schema.exclusiveMinimum !== undefined) return `must be greater than ${schema.exclusiveMinimum}`;
  if (low !== undefined) return `must be at least ${low}`;
  return `must be at most ${high}`;
}

export const isUuid = (value: string): boolean => UUID.test(value);
