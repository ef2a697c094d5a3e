import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { openApiDocument, TRANSCRIPT_QUERY_PARAMETERS, VOICE_QUERY_PARAMETERS } from './openapi';
import type { SttOptions, TranscriptQuery, TtsRequest, VoiceQuery } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Validation<T> = { ok: true; value: T } | { ok: false; message: string };

/** The text parts of an alignment request. */
export interface AlignFields {
  language?: string;
  cropStartSeconds?: number;
  cropEndSeconds?: number;
}

export interface Validators {
  ttsRequest(body: unknown): Validation<TtsRequest>;
  sttOptions(fields: Record<string, string>): Validation<SttOptions>;
  /** The text parts of POST /align/jobs (language and crop). */
  alignFields(fields: Record<string, string>): Validation<AlignFields>;
  voiceQuery(query: Record<string, unknown>): Validation<VoiceQuery>;
  transcriptQuery(query: Record<string, unknown>): Validation<TranscriptQuery>;
}

/** Ajv as the contract needs it: strict, and knowing every format the OpenAPI document uses. */
export function newAjv(coerceTypes: boolean, removeAdditional = false): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: false,
    useDefaults: true,
    coerceTypes,
    verbose: true,
    removeAdditional,
  });
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
  // A file part or a binary answer: not JSON data, nothing for Ajv to check.
  ajv.addFormat('binary', true);
  return ajv;
}

type Parameter = { name: string; schema: object; required?: boolean };
type Properties = Record<string, { type?: string | readonly string[] }>;

function querySchema(parameters: readonly Parameter[]): {
  type: 'object';
  additionalProperties: false;
  properties: Properties;
} {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
  };
}

/** A decimal number as people and generated clients write it: `12`, `-1`, `2.5`, `.5`, `1e3`. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Form and query values arrive as text, which Ajv's type coercion reads as JavaScript does: `0x10` as 16,
 * `Infinity` as a number (then stored as null). A number field takes a finite decimal number only.
 */
export function checkDecimalNumbers(properties: Properties, values: Record<string, unknown>): Validation<void> {
  for (const [name, value] of Object.entries(values)) {
    const type = [properties[name]?.type ?? []].flat();
    if (typeof value !== 'string' || !(type.includes('number') || type.includes('integer'))) continue;
    if (!DECIMAL.test(value) || !Number.isFinite(Number(value))) {
      const kind = type.includes('integer') ? 'integer' : 'number';
      return {
        ok: false,
        message: `${name}: must be ${kind} written in decimal, such as ${kind === 'integer' ? '3' : '2.5'}`,
      };
    }
  }
  return { ok: true, value: undefined };
}

/** Validates text fields (multipart parts, query parameters): decimal numbers first, then the schema with coercion. */
function textFieldsValidator<T>(ajv: Ajv2020, schema: { properties: Properties }, what: string) {
  const validate = ajv.compile<T>(schema);
  return (values: Record<string, unknown>): Validation<T> => {
    const numbers = checkDecimalNumbers(schema.properties, values);
    return numbers.ok ? run(validate, { ...values }, what) : numbers;
  };
}

/** Compiles every request validator from the OpenAPI document, once, at start-up. */
export function compileValidators(): Validators {
  const json = newAjv(false);
  const form = newAjv(true);
  const schemas = openApiDocument.components.schemas;
  const { file: _file, ...sttFieldProperties } = schemas.SttRequest.properties;
  const sttFields = { ...schemas.SttRequest, required: [], properties: sttFieldProperties };

  const { file: _media, script: _script, ...alignFieldProperties } = schemas.AlignRequest.properties;
  const alignSchema = { ...schemas.AlignRequest, required: [], properties: alignFieldProperties };
  const alignFields = textFieldsValidator<AlignFields>(form, alignSchema, 'field');

  const tts = json.compile<TtsRequest>(schemas.TtsRequest);
  const stt = textFieldsValidator<SttOptions>(form, sttFields, 'field');
  const voices = textFieldsValidator<VoiceQuery>(form, querySchema(VOICE_QUERY_PARAMETERS), 'query');
  const transcript = textFieldsValidator<TranscriptQuery>(form, querySchema(TRANSCRIPT_QUERY_PARAMETERS), 'query');

  return {
    ttsRequest: (body) => run(tts, structuredCopy(body), 'body'),
    sttOptions: (fields) => {
      const checked = stt(fields);
      return checked.ok ? checkSttCombination(checked.value) : checked;
    },
    alignFields: (fields) => {
      const checked = alignFields(fields);
      if (!checked.ok) return checked;
      const { cropStartSeconds: start, cropEndSeconds: end } = checked.value;
      if (start !== undefined && end !== undefined && end <= start)
        return { ok: false, message: 'cropEndSeconds: must be greater than cropStartSeconds' };
      return checked;
    },
    voiceQuery: voices,
    transcriptQuery: transcript,
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
        ? `${field}: must be ${schema.minLength as number} to ${schema.maxLength as number} characters`
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
  const low = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined;
  const high = (schema.maximum ?? schema.exclusiveMaximum) as number | undefined;
  if (low !== undefined && high !== undefined) return `must be from ${low} to ${high}`;
  if (schema.exclusiveMinimum !== undefined) return `must be greater than ${schema.exclusiveMinimum as number}`;
  if (low !== undefined) return `must be at least ${low}`;
  return `must be at most ${high}`;
}

export const isUuid = (value: string): boolean => UUID.test(value);
