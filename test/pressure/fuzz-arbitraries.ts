/**
 * What the fuzz suite sends: request bodies and query strings that mix valid values with wrong types,
 * out-of-range numbers, unknown fields, odd Unicode and bytes that are not JSON or not multipart at all.
 * Valid values are frequent enough that a good share of requests create jobs.
 */
import fc from 'fast-check';
import zlib from 'node:zlib';
import { BITRATES, SAMPLE_RATES } from '../../src/contract/openapi';
import { multipartBody, rawPathSegment, type Part } from './fuzz-client';

export interface RawBody {
  headers: Record<string, string>;
  body: Buffer;
}

/** Mostly a valid value, sometimes any JSON value at all. */
const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
const anyText = (maxLength: number) => fc.string({ unit: 'binary', maxLength });
const extraFields = fc.dictionary(fc.string({ maxLength: 16 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });

function ttsObject(voiceId: string): fc.Arbitrary<Record<string, unknown>> {
  const optional = {
    language: mostly(fc.constantFrom('auto', 'en', 'en-US', 'de', 'zz-ZZ', '', '../x', 'a'.repeat(40))),
    inputFormat: mostly(fc.constantFrom('txt', 'txt', 'srt', 'vtt', 'doc')),
    outputFormat: mostly(fc.constantFrom('wav', 'wav', 'mp3', 'aac', 'flac', 'ogg')),
    sampleRate: mostly(fc.constantFrom(...SAMPLE_RATES, 8000, 0, 24000.5)),
    bitrateKbps: mostly(fc.constantFrom(...BITRATES, null, 100)),
    audioChannels: mostly(fc.constantFrom('mono', 'stereo', 'quad')),
    steps: mostly(fc.integer({ min: -10, max: 100 })),
    guidanceScale: mostly(fc.double({ min: -1, max: 10, noNaN: true })),
    speed: mostly(fc.double({ min: 0, max: 3, noNaN: true })),
    duration: mostly(fc.oneof(fc.constant(null), fc.double({ min: -5, max: 1e5, noNaN: true }))),
    denoise: mostly(fc.boolean()),
    preprocessPrompt: mostly(fc.boolean()),
    postprocessOutput: mostly(fc.boolean()),
    trimSilence: mostly(fc.boolean()),
  };
  const names = Object.keys(optional) as Array<keyof typeof optional>;
  // The required fields are there nearly always (absent: undefined, which JSON leaves out).
  const voice = fc.option(
    mostly(fc.oneof({ weight: 6, arbitrary: fc.constant(voiceId) }, fc.constant(voiceId.toUpperCase()), fc.uuid())),
    { freq: 12, nil: undefined },
  );
  const text = fc.option(mostly(fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), anyText(200))), {
    freq: 12,
    nil: undefined,
  });
  return fc
    .tuple(
      voice,
      text,
      fc.record(optional),
      fc.uniqueArray(fc.constantFrom(...names), { maxLength: 3 }),
      fc.option(extraFields, { freq: 5 }),
    )
    .map(([voiceIdValue, textValue, values, chosen, extra]) => ({
      voiceId: voiceIdValue,
      text: textValue,
      ...Object.fromEntries(chosen.map((name) => [name, values[name]])),
      ...(extra ?? {}),
    }));
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value) ?? 'null', 'utf8');
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
];
const ENCODERS: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  br: (b) => zlib.brotliCompressSync(b),
  garbage: (b) => b,
};

/** A POST /tts/jobs body: JSON objects near the schema, other JSON, bytes, other content types, compressed. */
export function ttsRequest(voiceId: string): fc.Arbitrary<RawBody> {
  const object = ttsObject(voiceId);
  return fc.oneof(
    {
      weight: 12,
      arbitrary: object.map((o): RawBody => ({ headers: { 'Content-Type': 'application/json' }, body: json(o) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .jsonValue({ maxDepth: 3 })
        .map((v): RawBody => ({ headers: { 'Content-Type': 'application/json' }, body: json(v) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTENT_TYPES), fc.oneof(fc.uint8Array({ maxLength: 300 }), object.map(json)))
        .map(([type, bytes]): RawBody => ({ headers: type ? { 'Content-Type': type } : {}, body: Buffer.from(bytes) })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...Object.keys(ENCODERS)), object).map(([encoding, o]): RawBody => ({
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding === 'garbage' ? 'gzip' : encoding },
        body: ENCODERS[encoding](json(o)),
      })),
    },
  );
}

const STT_VALUES: Record<string, string[]> = {
  language: ['auto', 'en', 'de', 'zz', '', 'EN-us', '../../etc', 'a'.repeat(40)],
  punctuation: ['true', 'false', '1', '0', 'yes', ''],
  cropStartSeconds: ['0', '1.5', '-1', 'abc', '1e400', 'NaN', '5'],
  cropEndSeconds: ['2', '0', '1.5', '-3', 'Infinity', '9999999'],
  diarizationEnabled: ['false', 'false', 'false', 'true', 'no'],
  speakerCountMode: ['auto', 'exact', 'x'],
  speakerCount: ['1', '2', '32', '33', '0', 'x'],
};

/** A POST /stt/jobs body: known and unknown fields, a small file (or none, or two), odd names and boundaries. */
export function sttRequest(media: Buffer): fc.Arbitrary<RawBody> {
  const fieldValue = (name: string) =>
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...STT_VALUES[name]) }, { weight: 1, arbitrary: anyText(30) });
  const names = Object.keys(STT_VALUES);
  const known = fc
    .tuple(
      fc.record(Object.fromEntries(names.map((n) => [n, fieldValue(n)]))),
      fc.uniqueArray(fc.constantFrom(...names), { maxLength: 3 }),
    )
    .map(([values, chosen]) => Object.fromEntries(chosen.map((name) => [name, values[name]])));
  const unknown = fc.dictionary(fc.string({ maxLength: 12 }), anyText(20), { maxKeys: 2 });
  const file = fc.record({
    name: fc.oneof({ weight: 12, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: anyText(12) }),
    filename: fc.oneof(fc.constantFrom('a.wav', 'talk.mp3', '../../x', 'x'), anyText(40)),
    contentType: fc.option(fc.constantFrom('audio/wav', 'application/octet-stream', 'text/plain'), { nil: undefined }),
    data: fc.oneof(
      { weight: 3, arbitrary: fc.constant(media) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 1024 }).map((b) => Buffer.from(b)) },
    ),
  });
  // One file part nearly always; sometimes none or two.
  const files = fc.oneof(
    { weight: 8, arbitrary: file.map((f) => [f]) },
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.tuple(file, file) },
  );
  const parts = fc
    .tuple(known, fc.option(unknown, { freq: 6 }), files, fc.boolean())
    .map(([k, u, fileParts, filesFirst]) => {
      const fields: Part[] = Object.entries({ ...k, ...(u ?? {}) }).map(([name, value]) => ({
        name,
        data: Buffer.from(String(value)),
      }));
      return filesFirst ? [...fileParts, ...fields] : [...fields, ...fileParts];
    });
  const boundary = fc.constantFrom('b0undary', '----fuzz', 'x'.repeat(70));
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.tuple(parts, boundary).map(([p, b]): RawBody => ({
        headers: { 'Content-Type': `multipart/form-data; boundary=${b}` },
        body: multipartBody(p, b),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(parts, boundary).map(([p, b]): RawBody => ({
        headers: { 'Content-Type': `multipart/form-data; boundary=${b}` },
        body: multipartBody(p, b, false),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'multipart/form-data',
            'multipart/form-data; boundary=',
            'application/json',
            'multipart/mixed; boundary=b0undary',
            '',
          ),
          fc.uint8Array({ maxLength: 300 }),
        )
        .map(([type, bytes]): RawBody => ({ headers: type ? { 'Content-Type': type } : {}, body: Buffer.from(bytes) })),
    },
  );
}

/** A query string: mostly known parameters with plausible or odd values, repeated, or raw junk escapes. */
export function queryString(known: readonly string[], values: readonly string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const value = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: anyText(40) });
  const pairs = fc.array(fc.tuple(name, value), { maxLength: 5 });
  return fc.oneof(
    { weight: 5, arbitrary: pairs.map((p) => new URLSearchParams(p).toString()) },
    {
      weight: 1,
      arbitrary: pairs.map((p) => p.map(([n, v]) => `${rawPathSegment(n)}=${rawPathSegment(v)}`).join('&')),
    },
  );
}

/** A job id as a client might send it: real ids, uuids, traversal attempts, any text. */
export function jobIdSegment(realIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...realIds) },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 1,
      arbitrary: fc.constantFrom('..', '../..', '%2e%2e', '%2E%2E%2F%2E%2E', '%00', '.', '', '//', 'jobs.json', '%'),
    },
    { weight: 2, arbitrary: anyText(40).map(rawPathSegment) },
  );
}
