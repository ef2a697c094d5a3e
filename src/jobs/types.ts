import type { JobStatus } from '../contract/openapi';
import type { JobResult } from '../contract/types';
import { isLocalOnlyKind, JOB_KINDS, jobKindOf, type JobRecord, type RecordKind } from './kinds';

export type { JobStatus };
/** The seed's job kinds: what the Local API, the relay and remote jobs know. */
export type JobKind = 'tts' | 'stt';
/**
 * What the local store holds: the registry's kinds (src/jobs/kinds/index.ts). A kind the seed does not know
 * is either shown as a seed kind (`align` as `stt`) or never reaches a door that lists jobs publicly (an
 * audiobook export, a translation, a dub: editor and CLI only), so the seed's closed `tts`/`stt` enum is
 * never broken (docs/decisions.md).
 */
export type { RecordKind };

export { isLocalOnlyKind };
export type { TtsJobInput } from './kinds/tts';
export type { SttJobInput } from './kinds/stt';
export type { AlignJobInput } from './kinds/align';
export type { BookJobInput } from './kinds/book';
export type { TranslateJobInput } from './kinds/translate';
export type { DubJobInput } from './kinds/dub';
export { JOB_ORIGINS, type JobOrigin, type JobRecordBase } from './kinds/job-kind';

export const ACTIVE_STATUSES: ReadonlySet<JobStatus> = new Set(['queued', 'loading_model', 'processing']);
export const RUNNING_STATUSES: ReadonlySet<JobStatus> = new Set(['loading_model', 'processing']);
export const isActive = (status: JobStatus): boolean => ACTIVE_STATUSES.has(status);

export type { JobRecord } from './kinds';

/** The Job object of the spec. */
export interface PublicJob {
  id: string;
  name: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  phase: string | null;
  backend: string | null;
  result: JobResult | null;
  error: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** The result of a succeeded job of each kind; null for a job of another kind or one not succeeded. */
export const ttsResultOf = JOB_KINDS.tts.resultOf;
export const sttResultOf = JOB_KINDS.stt.resultOf;
export const bookResultOf = JOB_KINDS.book.resultOf;
export const translateResultOf = JOB_KINDS.translate.resultOf;
export const dubResultOf = JOB_KINDS.dub.resultOf;

/** The public view of a seed job, in its seed kind; a local-only job never reaches a door that shows jobs publicly. */
export function toPublicJob(job: JobRecord): PublicJob {
  const kind = jobKindOf(job.kind).seedKind;
  if (kind === null) throw new TypeError(`Expected a tts or stt job, got the ${job.kind} job ${job.id}`);
  const { id, name, status, progress, phase, backend, error, createdAt, startedAt, finishedAt } = job;
  // A kind shown as a seed kind answers the seed kind's result (TtsResult or SttResult).
  const result = job.result as JobResult | null;
  return { id, name, kind, status, progress, phase, backend, result, error, createdAt, startedAt, finishedAt };
}

/** One line of the job journal: the whole record after a change, or the removal of a job. */
export type JournalEntry = { put: JobRecord } | { remove: string };
