import type { JobStatus } from '../contract/openapi';
import type { JobResult, LexiconEntry, SttOptions, SttResult, TtsRequest, TtsResult } from '../contract/types';
import type { AudiobookFormat, BookResult } from '../audiobook/book-plan';
import type { SubtitleStyle } from '../contract/subtitle-style';
import type { DubResult, TranslateResult } from '../engine-api/protocol';
import type { DubMix, DubVoiceChoices } from '../engine-api/dub-types';
import type { ExtraOutputFormat, SsmlTaskMarkup, TtsVoiceRef, WhisperHints } from '../engine-api/protocol';
import type { ScriptFormat } from '../subtitles/script';

export type { JobStatus };
/** The seed's job kinds: what the Local API, the relay and remote jobs know. */
export type JobKind = 'tts' | 'stt';
/**
 * What the local store holds: also `book`, an audiobook export, which is never an `api` or `remote` job,
 * so the seed's closed `tts`/`stt` enum is never broken (docs/decisions.md).
 */
export type RecordKind = JobKind | 'book' | 'translate' | 'dub';

/** Kinds only the editor and the CLI make: never shown by a door that lists jobs publicly. */
export const isLocalOnlyKind = (kind: RecordKind): kind is 'book' | 'translate' | 'dub' => kind === 'book' || kind === 'translate' || kind === 'dub';
/**
 * Who created the job: the Local API sees only its own jobs; the editor sees all. `remote` jobs came from
 * a relay (src/device/) and, like editor jobs, never count against or appear in the Local API. `cli` jobs
 * are the command line's own (its audiobook export).
 */
export const JOB_ORIGINS = ['api', 'editor', 'remote', 'cli'] as const;
export type JobOrigin = (typeof JOB_ORIGINS)[number];

export const ACTIVE_STATUSES: ReadonlySet<JobStatus> = new Set(['queued', 'loading_model', 'processing']);
export const RUNNING_STATUSES: ReadonlySet<JobStatus> = new Set(['loading_model', 'processing']);
export const isActive = (status: JobStatus): boolean => ACTIVE_STATUSES.has(status);

export interface TtsJobInput {
  kind: 'tts';
  options: Omit<TtsRequest, 'text'>;
  /** Characters of text; the text itself lives in the job folder, not in the store. */
  characters: number;
  voice: TtsVoiceRef;
  /** The engine writes the output while it speaks, for a reader streaming it (see TtsTask.live). */
  live?: boolean;
  /** A format the engine encodes instead of `options.outputFormat`, for a door whose protocol has it (see TtsTask.encodeAs). */
  encodeAs?: ExtraOutputFormat;
  /**
   * How many lexicon entries were found in the text at creation, kept in the job folder's `lexicon.json`
   * (JOB_LEXICON_FILE) so the store stays small: a later PUT /lexicon does not change a queued job.
   */
  lexiconEntries?: number;
  /** Records written before lexiconEntries kept the entries here, in the store. */
  lexicon?: LexiconEntry[];
  /** The text is SSML, with what admission resolved for it (see TtsTask.ssml); only the non-seed doors set it. */
  ssml?: SsmlTaskMarkup;
}

export interface SttJobInput {
  kind: 'stt';
  options: SttOptions;
  /** File name of the upload inside the job folder. */
  inputFile: string;
  originalName: string;
  bytes: number;
  modelPath: string;
  /** `parakeet` when Parakeet transcribes, read from the model when the job was created; absent: whisper.cpp. */
  recognizer?: 'parakeet';
  /** Decoding hints beyond the contract's options (the OpenAI door's prompt, translate, temperature). */
  whisper?: WhisperHints;
  /** An alignment job: the script to time, instead of recognizing speech (`modelPath` is then empty). */
  align?: AlignJobInput;
}

/** The script of an alignment job, in the job's folder, and the VAD model found when the job was created. */
export interface AlignJobInput {
  scriptFile: string;
  scriptFormat: ScriptFormat;
  vadModelPath: string | null;
  /** The whisper model that refines the alignment, found when the job was created; absent or null: none. */
  recognizerModelPath?: string | null;
}

/** An audiobook export: the plan (texts, voices, lexicon) is `book.json` in the job folder, not in the store. */
export interface BookJobInput {
  kind: 'book';
  /** The manuscript as given, and where the book goes (absolute). */
  input: string;
  out: string;
  format: AudiobookFormat;
  perChapter: boolean;
  chapters: number;
  paragraphs: number;
  characters: number;
}

/** A subtitle translation (src/jobs/translate-job.ts): the file is copied into the job folder, the result written where asked. */
export interface TranslateJobInput {
  kind: 'translate';
  /** The subtitle file as given, and where the translation goes (absolute). */
  input: string;
  out: string;
  /** The copy in the job's folder. */
  inputFile: string;
  format: 'srt' | 'vtt';
  cues: number;
  modelPath: string;
  to: string;
  from?: string;
  style: SubtitleStyle;
}

/** A dub of a video (src/jobs/dub-job.ts): the subtitles, when given, are copied into the job folder; the copy is written where asked. */
export interface DubJobInput {
  kind: 'dub';
  /** The video as given, and where its dubbed copy goes (absolute). */
  input: string;
  out: string;
  /** The subtitles to dub from, as given, and their copy in the job's folder; absent: the video is transcribed. */
  subtitles?: string;
  subtitlesFile?: string;
  subtitlesFormat?: 'srt' | 'vtt';
  /** The recognizer that transcribes when no subtitles are given. */
  sttModelPath?: string;
  modelPath: string;
  to: string;
  from?: string;
  mix: DubMix;
  /** The library voices of the target language, chosen when the job was created. */
  voices: DubVoiceChoices;
  style: SubtitleStyle;
}

/** A job as the store keeps it: the public fields of the spec plus what the system needs to run it. */
export interface JobRecord {
  id: string;
  name: string;
  kind: RecordKind;
  status: JobStatus;
  progress: number;
  phase: string | null;
  backend: string | null;
  result: JobResult | BookResult | TranslateResult | DubResult | null;
  error: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  origin: JobOrigin;
  /** A `remote` job: the name of the relay API key that created it, when the relay said. */
  remoteKeyName?: string;
  input: TtsJobInput | SttJobInput | BookJobInput | TranslateJobInput | DubJobInput;
  /** File name of the output (TTS audio) or transcript (STT) inside the job folder, once succeeded. */
  outputFile: string | null;
}

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

/** The result of a succeeded TTS job; null for other jobs. */
export const ttsResultOf = (job: Pick<JobRecord, 'kind' | 'result'>): TtsResult | null => (job.kind === 'tts' ? (job.result as TtsResult | null) : null);

/** The result of a succeeded STT job; null for other jobs. */
export const sttResultOf = (job: Pick<JobRecord, 'kind' | 'result'>): SttResult | null => (job.kind === 'stt' ? (job.result as SttResult | null) : null);

/** The result of a succeeded book job; null for other jobs. */
export const bookResultOf = (job: Pick<JobRecord, 'kind' | 'result'>): BookResult | null => (job.kind === 'book' ? (job.result as BookResult | null) : null);

/** The result of a succeeded translation job; null for other jobs. */
export const translateResultOf = (job: Pick<JobRecord, 'kind' | 'result'>): TranslateResult | null => (job.kind === 'translate' ? (job.result as TranslateResult | null) : null);

/** The result of a succeeded dub job; null for other jobs. */
export const dubResultOf = (job: Pick<JobRecord, 'kind' | 'result'>): DubResult | null => (job.kind === 'dub' ? (job.result as DubResult | null) : null);

/** The public view of a seed job; a book or translation job never reaches a door that shows jobs publicly. */
export function toPublicJob(job: JobRecord): PublicJob {
  if (isLocalOnlyKind(job.kind)) throw new TypeError(`Expected a tts or stt job, got the ${job.kind} job ${job.id}`);
  const { id, name, kind, status, progress, phase, backend, error, createdAt, startedAt, finishedAt } = job;
  const result = job.result as JobResult | null;
  return { id, name, kind, status, progress, phase, backend, result, error, createdAt, startedAt, finishedAt };
}

/** One line of the job journal: the whole record after a change, or the removal of a job. */
export type JournalEntry = { put: JobRecord } | { remove: string };
