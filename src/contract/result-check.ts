/**
 * Checks a job result that came from outside this process (a relay device's report) against the contract's
 * result schema before anyone stores or serves it: the shape the kind promises, members the contract does not
 * name dropped, and a bounded size.
 */
import type { ValidateFunction } from 'ajv/dist/2020';
import { openApiDocument } from './openapi';
import type { JobResult } from './types';
import { describeError, newAjv, type Validation } from './validation';

/** A subtitle narration's cue reports are the largest honest result (≈ 250 bytes a cue): room for thousands. */
export const MAX_RESULT_BYTES = 2 * 1024 * 1024;

type Schema = Record<string, unknown>;
const schemas = openApiDocument.components.schemas as unknown as Record<string, Schema>;

/** The schema with its `$ref`s written out and every object closed, so that Ajv drops what it does not name. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as Schema;
  if (typeof $ref === 'string') {
    const target = schemas[$ref.replace('#/components/schemas/', '')];
    if (!target) throw new TypeError(`Expected a schema of the contract, got ${$ref}`);
    return closed({ ...target, ...rest });
  }
  const copy = Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, closed(value)]));
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

let compiled: Record<'tts' | 'stt', ValidateFunction<JobResult>> | undefined;
function validators(): Record<'tts' | 'stt', ValidateFunction<JobResult>> {
  if (compiled) return compiled;
  // Members a closed object does not name are removed, not refused: a newer device may report more.
  const ajv = newAjv(false, true);
  compiled = {
    tts: ajv.compile<JobResult>(closed(schemas.TtsResult) as Schema),
    stt: ajv.compile<JobResult>(closed(schemas.SttResult) as Schema),
  };
  return compiled;
}

/** The result as the contract describes it for a job of `kind`, or a sentence saying what is wrong with it. */
export function checkJobResult(kind: 'tts' | 'stt', result: unknown): Validation<JobResult> {
  let text: string | undefined;
  try {
    text = JSON.stringify(result);
  } catch {
    text = undefined;
  }
  if (text === undefined) return { ok: false, message: 'the result is not JSON data' };
  if (Buffer.byteLength(text) > MAX_RESULT_BYTES)
    return { ok: false, message: `the result is larger than ${MAX_RESULT_BYTES} bytes` };
  const copy: unknown = JSON.parse(text);
  const validate = validators()[kind];
  if (validate(copy)) return { ok: true, value: copy };
  return { ok: false, message: describeError(validate.errors?.[0], 'result') };
}
