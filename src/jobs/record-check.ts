import { JOB_STATUSES } from '../contract/openapi';
import { isRecordKind, jobKindOf, RECORD_KINDS } from './kinds';
import { upgradeLegacyAlignment } from './kinds/align';
import { isObject, isSafeFileName, isString } from './kinds/checks';
import { isActive, JOB_ORIGINS, type JobRecord, type JournalEntry } from './types';

/**
 * Checks a job record read back from disk. A damaged or hand-edited store must not reach the job service:
 * ids and file names become paths (a job id of `../..` would be pruned with `rm -r`), a record missing its
 * status would make start-up throw, and a job that may still run must carry options the API itself would
 * accept, or the engine is asked for something no request may ask (a sample rate of 1e9).
 * docs/relay-and-job-store.md says what a sound record is; each kind checks its own input (src/jobs/kinds/).
 */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const STATUSES: ReadonlySet<string> = new Set(JOB_STATUSES);
const ORIGINS: ReadonlySet<string> = new Set(JOB_ORIGINS);

const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const orNull = (value: unknown, check: (v: unknown) => boolean): boolean => value === null || check(value);

/** What is wrong with the shape of a record, or undefined when nothing is. */
function shapeProblem(value: Record<string, unknown>): string | undefined {
  if (!(typeof value.id === 'string' && SAFE_ID.test(value.id))) return 'id: is not a job id';
  if (typeof value.name !== 'string') return 'name: is not a string';
  if (!isRecordKind(value.kind))
    return `kind: is not ${RECORD_KINDS.slice(0, -1).join(', ')} or ${RECORD_KINDS.at(-1)}`;
  if (!(typeof value.status === 'string' && STATUSES.has(value.status))) return 'status: is not a job status';
  if (!(typeof value.progress === 'number' && value.progress >= 0 && value.progress <= 100))
    return 'progress: is not from 0 to 100';
  if (!(orNull(value.phase, isString) && orNull(value.backend, isString) && orNull(value.error, isString)))
    return 'phase, backend or error: is not a string';
  if (!orNull(value.result, isObject)) return 'result: is not an object';
  if (!(isTime(value.createdAt) && orNull(value.startedAt, isTime) && orNull(value.finishedAt, isTime)))
    return 'createdAt, startedAt or finishedAt: is not a time';
  if (!(typeof value.origin === 'string' && ORIGINS.has(value.origin)))
    return `origin: is not one of ${JOB_ORIGINS.join(', ')}`;
  if (!orNull(value.outputFile, isSafeFileName)) return 'outputFile: is not a file name';
  if (!(value.remoteKeyName === undefined || isString(value.remoteKeyName))) return 'remoteKeyName: is not a string';
  const input = value.input;
  if (!(isObject(input) && input.kind === value.kind)) return "input: does not match the job's kind";
  return jobKindOf(value.kind).inputProblem(input, value.origin);
}

/**
 * The input of a job that may still run, with its options checked as the API checks a request: with its
 * validators, which fill in every default. A finished job never runs again, so its options are history:
 * they are not held to a schema that may have grown stricter since.
 */
function checkedInput(record: JobRecord): { input: JobRecord['input'] } | { problem: string } | undefined {
  if (!isActive(record.status)) return undefined;
  // A book's, translation's or dub's engine checks each paragraph's options as it reads its plan.
  return jobKindOf(record.kind).checkedInput?.(record.input);
}

function optionsProblem(record: JobRecord): string | undefined {
  const checked = checkedInput(record);
  return checked && 'problem' in checked ? `input.options.${checked.problem}` : undefined;
}

/**
 * A sound record as the store keeps it from now on: an alignment the previous version stored as `stt` is
 * read as the `align` job it is. The store applies it to the snapshot and the journal before it replays
 * them, so a record the previous version wrote and the same record written since compare equal.
 */
export const upgradeStored = (record: JobRecord): JobRecord => upgradeLegacyAlignment(record) as JobRecord;

/**
 * A sound record as the engine may read it: a job that may still run gets its options with every default
 * filled in, as the API fills them (a record written before an option existed, or edited by hand, lacks
 * some; the engine reads options as they are stored).
 */
export function withDefaults(record: JobRecord): JobRecord {
  const checked = checkedInput(record);
  // The kind's own check answers its own input: the record keeps its kind.
  return checked && 'input' in checked ? ({ ...record, input: checked.input } as JobRecord) : record;
}

/** Why a record read from disk cannot be used, or undefined when it can. */
export function recordProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'is not an object';
  const record = upgradeLegacyAlignment(value as { kind: string; input: unknown });
  return shapeProblem(record) ?? optionsProblem(record as unknown as JobRecord);
}

export function isJobRecord(value: unknown): value is JobRecord {
  return recordProblem(value) === undefined;
}

export function isJournalEntry(value: unknown): value is JournalEntry {
  if (!isObject(value)) return false;
  if ('put' in value) return isJobRecord(value.put);
  return typeof value.remove === 'string';
}
