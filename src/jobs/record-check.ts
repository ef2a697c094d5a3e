import { JOB_STATUSES } from '../contract/openapi';
import { compileValidators, type Validation, type Validators } from '../contract/validation';
import { isActive, JOB_ORIGINS, type JobRecord, type JournalEntry, type SttJobInput, type TtsJobInput } from './types';

/**
 * Checks a job record read back from disk. A damaged or hand-edited store must not reach the job service:
 * ids and file names become paths (a job id of `../..` would be pruned with `rm -r`), a record missing its
 * status would make start-up throw, and a job that may still run must carry options the API itself would
 * accept, or the engine is asked for something no request may ask (a sample rate of 1e9).
 * docs/relay-and-job-store.md says what a sound record is.
 */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const SAFE_FILE_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;
const STATUSES: ReadonlySet<string> = new Set(JOB_STATUSES);
const ORIGINS: ReadonlySet<string> = new Set(JOB_ORIGINS);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const orNull = (value: unknown, check: (v: unknown) => boolean): boolean => value === null || check(value);
const isString = (value: unknown): boolean => typeof value === 'string';
const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;
const isSafeFileName = (value: unknown): boolean => typeof value === 'string' && SAFE_FILE_NAME.test(value);

/** Compiled on first use, once per process: the same validators the API answers 422 with. */
let validators: Validators | undefined;
const schema = (): Validators => (validators ??= compileValidators());

/** What is wrong with the shape of a record, or undefined when nothing is. */
function shapeProblem(value: Record<string, unknown>): string | undefined {
  if (!(typeof value.id === 'string' && SAFE_ID.test(value.id))) return 'id: is not a job id';
  if (typeof value.name !== 'string') return 'name: is not a string';
  if (value.kind !== 'tts' && value.kind !== 'stt' && value.kind !== 'book' && value.kind !== 'translate' && value.kind !== 'dub') return 'kind: is not tts, stt, book, translate or dub';
  if (!(typeof value.status === 'string' && STATUSES.has(value.status))) return 'status: is not a job status';
  if (!(typeof value.progress === 'number' && value.progress >= 0 && value.progress <= 100)) return 'progress: is not from 0 to 100';
  if (!(orNull(value.phase, isString) && orNull(value.backend, isString) && orNull(value.error, isString))) return 'phase, backend or error: is not a string';
  if (!orNull(value.result, isObject)) return 'result: is not an object';
  if (!(isTime(value.createdAt) && orNull(value.startedAt, isTime) && orNull(value.finishedAt, isTime))) return 'createdAt, startedAt or finishedAt: is not a time';
  if (!(typeof value.origin === 'string' && ORIGINS.has(value.origin))) return `origin: is not one of ${JOB_ORIGINS.join(', ')}`;
  if (!orNull(value.outputFile, isSafeFileName)) return 'outputFile: is not a file name';
  if (!(value.remoteKeyName === undefined || isString(value.remoteKeyName))) return 'remoteKeyName: is not a string';
  const input = value.input;
  if (!(isObject(input) && input.kind === value.kind && (input.kind === 'book' || input.kind === 'translate' || input.kind === 'dub' || isObject(input.options)))) return 'input: does not match the job\'s kind';
  if (input.kind === 'book') {
    if (value.origin !== 'editor' && value.origin !== 'cli') return 'origin: a book job comes from the editor or the command line';
    if (!(isString(input.input) && isString(input.out) && (input.format === 'm4b' || input.format === 'mp3' || input.format === 'epub3') && typeof input.perChapter === 'boolean')) return 'input: is not a book export';
    if (!(isCount(input.chapters) && isCount(input.paragraphs) && isCount(input.characters))) return 'input: lacks the book\'s counts';
  } else if (input.kind === 'translate') {
    if (value.origin !== 'editor' && value.origin !== 'cli') return 'origin: a translation job comes from the editor or the command line';
    if (!(isString(input.input) && isString(input.out) && isSafeFileName(input.inputFile) && isString(input.modelPath) && isString(input.to) && isObject(input.style))) return 'input: is not a subtitle translation';
    if (!(input.format === 'srt' || input.format === 'vtt') || !isCount(input.cues)) return 'input: lacks the subtitle format or cue count';
  } else if (input.kind === 'dub') {
    if (value.origin !== 'editor' && value.origin !== 'cli') return 'origin: a dub job comes from the editor or the command line';
    if (!(isString(input.input) && isString(input.out) && isString(input.modelPath) && isString(input.to) && isObject(input.style) && isObject(input.voices))) return 'input: is not a dub';
    if (!(input.mix === 'duck' || input.mix === 'replace')) return 'input: lacks the dub\'s mix';
  } else if (input.kind === 'tts') {
    const voice = input.voice;
    if (!isCount(input.characters)) return 'input.characters: is not a count';
    if (!(isObject(voice) && isString(voice.engine) && isString(voice.engineVoiceId) && isString(voice.languageCode))) return 'input.voice: is not a voice';
  } else {
    if (!isSafeFileName(input.inputFile)) return 'input.inputFile: is not a file name';
    if (!(isString(input.originalName) && isString(input.modelPath) && isCount(input.bytes))) return 'input: lacks the upload\'s name, size or model';
  }
  return undefined;
}

/**
 * The options of a job that may still run, checked as the API checks a request: with its validators, which
 * fill in every default. A finished job never runs again, so its options are history: they are not held to
 * a schema that may have grown stricter since.
 */
function checkOptions(record: JobRecord): Validation<TtsJobInput['options'] | SttJobInput['options']> | undefined {
  if (!isActive(record.status)) return undefined;
  const input = record.input;
  if (input.kind === 'book' || input.kind === 'translate' || input.kind === 'dub') return undefined; // the engine checks each paragraph's options as it reads the plan
  if (input.kind === 'stt') return schema().sttOptions({ ...input.options } as unknown as Record<string, string>);
  // The text lives in the job's folder, not in the record; any non-empty text stands in for it.
  const checked = schema().ttsRequest({ ...input.options, text: 'text' });
  if (!checked.ok) return checked;
  const { text: _text, ...options } = checked.value;
  return { ok: true, value: options };
}

function optionsProblem(record: JobRecord): string | undefined {
  const checked = checkOptions(record);
  return checked && !checked.ok ? `input.options.${checked.message}` : undefined;
}

/**
 * A sound record as the engine may read it: a job that may still run gets its options with every default
 * filled in, as the API fills them (a record written before an option existed, or edited by hand, lacks
 * some; the engine reads options as they are stored).
 */
export function withDefaults(record: JobRecord): JobRecord {
  const checked = checkOptions(record);
  return checked?.ok ? { ...record, input: { ...record.input, options: checked.value } as JobRecord['input'] } : record;
}

/** Why a record read from disk cannot be used, or undefined when it can. */
export function recordProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'is not an object';
  return shapeProblem(value) ?? optionsProblem(value as unknown as JobRecord);
}

export function isJobRecord(value: unknown): value is JobRecord {
  return recordProblem(value) === undefined;
}

export function isJournalEntry(value: unknown): value is JournalEntry {
  if (!isObject(value)) return false;
  if ('put' in value) return isJobRecord(value.put);
  return typeof value.remove === 'string';
}
