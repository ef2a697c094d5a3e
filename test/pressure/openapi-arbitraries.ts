/**
 * Turns the server's own OpenAPI document into fast-check arbitraries: values that follow a schema (types,
 * enums, bounds, required and optional properties) and mutations of them (wrong types, out of range,
 * unknown fields, huge strings, odd unicode, missing required fields), so a property check can call every
 * operation the document lists without a hand-written generator per route.
 */
import fc from 'fast-check';

export type Schema = Record<string, any>;

/**
 * Values known to be valid for a property or parameter name (a real voice id, a model name): a schema says
 * `voiceId` is a string, only the server knows which strings name a voice, and without them the check would
 * test little but the refusal path.
 */
export type Hints = Readonly<Record<string, readonly unknown[]>>;
let hints: Hints = {};
export function useHints(known: Hints): void {
  hints = known;
}

/** A hinted value most of the time, a generated one otherwise. */
function hinted(name: string, generated: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const known = hints[name];
  return known && known.length > 0
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generated })
    : generated;
}

/** A valid value for a named property or parameter, preferring the hints. */
export function validNamed(document: Schema, name: string, raw: Schema | undefined): fc.Arbitrary<unknown> {
  return hinted(name, validValue(document, raw));
}

/** Valid strings stay short: a valid `input` of 100 000 characters would make the check a synthesis bench. */
const VALID_STRING_CAP = 24;

/** Strings a careless or hostile client sends: control and zero-width characters, lone surrogates, RTL marks, NULs. */
export const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u200b',
    '\u202e\u0041',
    '\ud800',
    '\udfff',
    '💥🎤',
    'e\u0301',
    '../../etc/passwd',
    '%00',
    '\r\n\r\n',
    'null',
    '{}',
    'NaN',
    '-0',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Follows `$ref`s into the document. */
export function resolve(document: Schema, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let depth = 0; typeof current.$ref === 'string' && depth < 20; depth++) {
    current =
      current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: any, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) ?? {};
  }
  return current;
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return ['string'];
}

function validString(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema.pattern === 'string' && /^\^\[A-Za-z0-9-\]\+\$$/.test(schema.pattern)) {
    return fc.constantFrom('en', 'fr', 'auto', 'de-DE', 'x');
  }
  const min = Math.max(0, schema.minLength ?? 0);
  const max = Math.max(min, Math.min(schema.maxLength ?? VALID_STRING_CAP, VALID_STRING_CAP));
  const words = fc.constantFrom('hello', 'world', 'speech', 'studio', 'Koa', 'one two', 'test');
  return fc
    .oneof(
      fc.array(words, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' ')),
      fc.string({ minLength: min, maxLength: max }),
    )
    .filter((value) => value.length >= min && (schema.maxLength === undefined || value.length <= schema.maxLength));
}

function validNumber(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const low =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.001) : 0);
  const high =
    schema.maximum ??
    (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 0.001) : low + 100);
  if (integer)
    return fc.integer({ min: Math.ceil(low), max: Math.max(Math.ceil(low), Math.floor(Math.min(high, low + 1000))) });
  return fc.double({ min: low, max: Math.max(low, Math.min(high, low + 1000)), noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts (as far as plain JSON Schema says; cross-field rules are the server's to judge). */
export function validValue(document: Schema, raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.example !== undefined)
    return fc.oneof(fc.constant(schema.example), validValue(document, { ...schema, example: undefined }, depth));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return fc.oneof(...alternatives.map((s: Schema) => validValue(document, s, depth + 1)));
  if (Array.isArray(schema.allOf)) {
    const merged = schema.allOf
      .map((s: Schema) => resolve(document, s))
      .reduce(
        (all: Schema, s: Schema) => ({
          ...all,
          ...s,
          properties: { ...all.properties, ...s.properties },
          required: [...(all.required ?? []), ...(s.required ?? [])],
        }),
        {},
      );
    return validValue(document, merged, depth + 1);
  }
  const type = typesOf(schema).find((t) => t !== 'null') ?? 'null';
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return validNumber(schema, true);
    case 'number':
      return validNumber(schema, false);
    case 'string':
      return validString(schema);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minLength = schema.minItems ?? 0;
      return fc.array(validValue(document, schema.items, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    default:
      return validObject(document, schema, depth);
  }
}

function validObject(document: Schema, schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 4) return fc.constant({});
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    shape[name] = hinted(name, validValue(document, property, depth + 1));
  return fc.record(shape, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) });
}

/** A value of the wrong kind for the schema, or one just past its bounds. */
export function wrongValue(document: Schema, raw: Schema | undefined): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  const outOfRange: unknown[] = [];
  if (typeof schema.minimum === 'number') outOfRange.push(schema.minimum - 1, schema.minimum - 1e-9);
  if (typeof schema.maximum === 'number') outOfRange.push(schema.maximum + 1, schema.maximum * 1e6);
  if (typeof schema.maxLength === 'number') outOfRange.push('x'.repeat(schema.maxLength + 1));
  if (typeof schema.minLength === 'number' && schema.minLength > 0) outOfRange.push('');
  if (typeof schema.maxItems === 'number' && schema.maxItems < 100)
    outOfRange.push(Array.from({ length: schema.maxItems + 1 }, () => ({})));
  if (Array.isArray(schema.enum))
    outOfRange.push(`${String(schema.enum[0])}-not-a-choice`, String(schema.enum[0]).toUpperCase());
  return fc.oneof(
    fc.constantFrom<unknown>(
      null,
      true,
      0,
      -1,
      1e308,
      -1e308,
      0.1,
      '',
      '1',
      [],
      {},
      [null],
      { x: 1 },
      'x'.repeat(300_000),
      ...outOfRange,
    ),
    oddString,
    fc.integer(),
  );
}

export type BodyMutation =
  'valid' | 'wrong-type' | 'unknown-field' | 'missing-required' | 'not-an-object' | 'odd-strings';

/** A JSON body text for the schema: valid, or valid but for one mutation. */
export function jsonBody(document: Schema, raw: Schema): fc.Arbitrary<{ mutation: BodyMutation; text: string }> {
  return jsonBodyValue(document, raw).map(({ mutation, value, text }) => ({
    mutation,
    text: text ?? JSON.stringify(value),
  }));
}

function jsonBodyValue(
  document: Schema,
  raw: Schema,
): fc.Arbitrary<{ mutation: BodyMutation; value?: unknown; text?: string }> {
  const schema = resolve(document, raw);
  const valid = validValue(document, schema);
  const names = Object.keys(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  const variants: Array<fc.Arbitrary<{ mutation: BodyMutation; value?: unknown; text?: string }>> = [
    valid.map((value) => ({ mutation: 'valid' as const, value })),
    fc
      .constantFrom<unknown>(null, [], 'text', 42, [{}], true)
      .map((value) => ({ mutation: 'not-an-object' as const, value })),
  ];
  if (names.length > 0) {
    variants.push(
      fc
        .tuple(
          valid,
          fc.constantFrom(...names),
          fc
            .constantFrom(...names)
            .chain((n) => wrongValue(document, schema.properties[n]).map((v) => [n, v] as const)),
        )
        .map(([value, , [name, wrong]]) => ({
          mutation: 'wrong-type' as const,
          value: { ...(value as object), [name]: wrong },
        })),
      fc.tuple(valid, fc.constantFrom(...names), oddString).map(([value, name, odd]) => ({
        mutation: 'odd-strings' as const,
        value: { ...(value as object), [name]: odd },
      })),
    );
  }
  variants.push(
    fc
      .tuple(
        valid,
        fc.constantFrom('unknownField', '__proto__', 'constructor', 'Model', ''),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .map(([value, name, extra]) => ({
        mutation: 'unknown-field' as const,
        // Written as text so that `__proto__` travels as a real key.
        text: JSON.stringify(value)
          .replace(/^\{/, `{${JSON.stringify(name)}:${JSON.stringify(extra ?? null)},`)
          .replace(/,\}$/, '}'),
      })),
  );
  if (required.length > 0) {
    variants.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([value, name]) => {
        const copy = { ...(value as Record<string, unknown>) };
        delete copy[name];
        return { mutation: 'missing-required' as const, value: copy };
      }),
    );
  }
  return fc.oneof(...variants);
}

/** How a value travels as a form field or a query parameter. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects took the JSON branch: what is left is a number, a boolean or a bigint
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
