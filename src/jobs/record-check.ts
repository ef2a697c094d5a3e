import { JOB_STATUSES } from '../contract/openapi';
import type { JobRecord, JournalEntry } from './types';

/**
 * Checks the shape of a job record read back from disk. A damaged or hand-edited store must not reach the
 * job service: ids and file names become paths (a job id of `../..` would be pruned with `rm -r`), and a
 * record missing its status would make start-up throw.
 */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const SAFE_FILE_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;
const STATUSES: ReadonlySet<string> = new Set(JOB_STATUSES);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const orNull = (value: unknown, check: (v: unknown) => boolean): boolean => value === null || check(value);
const isString = (value: unknown): boolean => typeof value === 'string';

export function isJobRecord(value: unknown): value is JobRecord {
  if (!isObject(value)) return false;
  const input = value.input;
  return (
    typeof value.id === 'string' && SAFE_ID.test(value.id) &&
    typeof value.name === 'string' &&
    (value.kind === 'tts' || value.kind === 'stt') &&
    typeof value.status === 'string' && STATUSES.has(value.status) &&
    typeof value.progress === 'number' && value.progress >= 0 && value.progress <= 100 &&
    orNull(value.phase, isString) && orNull(value.backend, isString) && orNull(value.error, isString) &&
    orNull(value.result, isObject) &&
    isTime(value.createdAt) && orNull(value.startedAt, isTime) && orNull(value.finishedAt, isTime) &&
    (value.origin === 'api' || value.origin === 'editor') &&
    orNull(value.outputFile, (name) => typeof name === 'string' && SAFE_FILE_NAME.test(name)) &&
    isObject(input) && input.kind === value.kind && isObject(input.options) &&
    (input.kind === 'tts' || (typeof input.inputFile === 'string' && SAFE_FILE_NAME.test(input.inputFile)))
  );
}

export function isJournalEntry(value: unknown): value is JournalEntry {
  if (!isObject(value)) return false;
  if ('put' in value) return isJobRecord(value.put);
  return typeof value.remove === 'string';
}
