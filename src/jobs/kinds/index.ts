/**
 * The registry of job kinds: every place that treats kinds differently (creating, running, checking a stored
 * record, showing it) asks the kind's module here instead of spelling the kinds out. Adding a kind is its
 * module (src/jobs/kinds/<kind>.ts) and its line in JOB_KINDS (docs/architecture.md, "Adding a job kind").
 */
import { alignKind } from './align';
import { bookKind } from './book';
import { dubKind } from './dub';
import { embedKind } from './embed';
import type { JobKindModule, KindRecord, NewJob } from './job-kind';
import { sttKind } from './stt';
import { translateKind } from './translate';
import { ttsKind } from './tts';

/** Every job kind, by the kind its records store. */
export const JOB_KINDS = {
  tts: ttsKind,
  stt: sttKind,
  align: alignKind,
  book: bookKind,
  translate: translateKind,
  dub: dubKind,
  embed: embedKind,
} as const;

type Kinds = typeof JOB_KINDS;
/** The stored record a kind's module makes (its kind, its input, its result). */
type RecordOfModule<M> = M extends JobKindModule<infer K, infer I, infer R, infer _N> ? KindRecord<K, I, R> : never;

/** What the local store holds: a kind of the registry. */
export type RecordKind = keyof Kinds;

/**
 * A job as the store keeps it: the public fields of the spec plus what the system needs to run it. A union
 * over the registry's kinds: the kind says which input and which result the record holds.
 */
export type JobRecord = { [K in RecordKind]: RecordOfModule<Kinds[K]> }[RecordKind];

/** A module of any kind, taking any record: what `jobKindOf` answers for a record whose kind is known only at run time. */
export type AnyJobKind = JobKindModule<JobRecord['kind'], JobRecord['input'], NonNullable<JobRecord['result']>, NewJob>;

/** The module of a stored kind. */
export const jobKindOf = (kind: JobRecord['kind']): AnyJobKind => JOB_KINDS[kind];

/** Whether a value read from disk names a kind of the registry. */
export const isRecordKind = (value: unknown): value is JobRecord['kind'] =>
  typeof value === 'string' && Object.hasOwn(JOB_KINDS, value);

/** Kinds only the editor and the CLI make: never shown by a door that lists jobs publicly. */
export const isLocalOnlyKind = (kind: JobRecord['kind']): boolean => jobKindOf(kind).seedKind === null;

/** The kinds' names, in the registry's order, for a sentence ("kind: is not tts, stt, …"). */
export const RECORD_KINDS = Object.keys(JOB_KINDS) as JobRecord['kind'][];
