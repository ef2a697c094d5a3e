/**
 * What a job kind is, in one place: every kind is one module of this shape (src/jobs/kinds/<kind>.ts), and
 * the registry (src/jobs/kinds/index.ts) is what the job service, the store's check, the doors and the views
 * iterate instead of asking "which kind is this" each in its own if-chain. docs/architecture.md, "Adding a
 * job kind", walks through a new one.
 */
import type { LexiconEntry } from '../../contract/types';
import type { EngineTask } from '../../engine-api/protocol';
import type { JobStatus } from '../../contract/openapi';

/**
 * Who created the job: the Local API sees only its own jobs; the editor sees all. `remote` jobs came from
 * a relay (src/device/) and, like editor jobs, never count against or appear in the Local API. `cli` jobs
 * are the command line's own (its audiobook export); `mcp` jobs are an MCP agent's of the local-only kinds
 * (its narrations and transcriptions are `api` jobs, which its read_job reads).
 */
export const JOB_ORIGINS = ['api', 'editor', 'remote', 'cli', 'mcp'] as const;
export type JobOrigin = (typeof JOB_ORIGINS)[number];
/** The origins of local-only kinds (book, translate, dub, embed): the doors on this machine that wait for them. */
export type LocalOrigin = Extract<JobOrigin, 'editor' | 'cli' | 'mcp'>;

/** What every stored job has, whatever its kind. */
export interface JobRecordBase {
  id: string;
  name: string;
  status: JobStatus;
  progress: number;
  phase: string | null;
  backend: string | null;
  error: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  origin: JobOrigin;
  /** A `remote` job: the name of the relay API key that created it, when the relay said. */
  remoteKeyName?: string;
  /** File name of the output (TTS audio) or transcript (STT) inside the job folder, once succeeded. */
  outputFile: string | null;
}

/** A stored job of one kind: its kind ties its input and its result. */
export type KindRecord<K extends string, I, R> = JobRecordBase & { kind: K; input: I; result: R | null };

/** What every admitted request carries, whatever its kind. */
export interface NewJob {
  origin: JobOrigin;
  /** A remote job's caller: the relay key's name. */
  remoteKeyName?: string;
  /** The job's name; default: what the kind derives from its input. */
  name?: string;
}

/** The new job's folder, while its kind writes what the request brought into it. */
export interface NewJobFolder {
  id: string;
  dir: string;
  file(name: string): string;
  /** The data directory the jobs run in. */
  dataDir: string;
  /** The lexicon a job speaks with: the data directory's entries, `over` winning (JobService.lexiconWith). */
  lexiconWith(over: readonly LexiconEntry[]): Promise<readonly LexiconEntry[]>;
}

/** What a kind made of an admitted request: the input the store keeps, and the job's name. */
export interface MadeInput<I> {
  input: I;
  name: string;
  /** Known only once the request was received (an STT upload's caller). */
  remoteKeyName?: string;
}

/** Where a job's files are when the engine runs it (JobFiles). */
export interface JobPaths {
  readonly dataDir: string;
  dir(id: string): string;
  file(id: string, name: string): string;
}

/** How the Jobs view opens a succeeded job's output. */
export type OpenWith = 'player' | 'editor' | 'reveal';

/**
 * One job kind. K is the kind stored in the record, I the input the store keeps, R the engine's result and
 * N the admitted request a door hands to `JobService.create`.
 */
export interface JobKindModule<K extends string, I extends { kind: K }, R, N extends NewJob> {
  readonly kind: K;
  /**
   * The seed's kind (docs/decisions.md: the closed `tts`/`stt` enum) a job of this kind shows as on the seed's
   * routes (the Local API, its events, MCP, the extension API); null: a kind only the editor and the command
   * line make, never listed there.
   */
  readonly seedKind: 'tts' | 'stt' | null;
  /** The Jobs view's word for the kind. */
  readonly label: string;
  /** The job in a sentence: "The transcription job … failed". */
  readonly noun: string;
  /** What such a job is, after "is": "Job … is an audiobook export". */
  readonly phrase: string;
  /** How the Jobs view opens the output. */
  readonly openWith: OpenWith;
  /** Writes what the admitted request brings into the job's folder; throws to refuse (the service undoes the folder). */
  input(admitted: N, folder: NewJobFolder): Promise<MadeInput<I>>;
  /**
   * The engine's view of the job: absolute paths and the options it needs. Any engine task may be a job's:
   * the task's kind, not this module, says which lane of the scheduler it waits in (src/jobs/task-places.ts).
   */
  task(job: KindRecord<K, I, R>, paths: JobPaths): EngineTask;
  /** The output a finished job keeps in its folder; null: its output is where the user asked (`userOutput`). */
  outputFile(job: KindRecord<K, I, R>): string | null;
  /** The file written where the user asked, for a kind whose output is not in the job's folder. */
  userOutput?(job: KindRecord<K, I, R>): string;
  /** What is wrong with an input read back from disk (its kind already matched), or undefined. */
  inputProblem(input: Record<string, unknown>, origin: unknown): string | undefined;
  /**
   * The input of a job that may still run, with its options checked as the API checks a request, every
   * default filled in; `{ problem }` names what the API would refuse. Absent: the kind keeps no options to check.
   */
  checkedInput?(input: I): { input: I } | { problem: string };
  /** The result when the record (of any kind) is of this kind, else null: narrowed by the kind, never cast. */
  resultOf: <J extends { kind: string; result: unknown }>(job: J) => Extract<J, { kind: K }>['result'] | null;
}

/** A type guard for one kind: a record that passes it has that kind's input and result. */
export const isKind =
  <K extends string>(kind: K) =>
  <J extends { kind: string }>(job: J): job is Extract<J, { kind: K }> =>
    job.kind === kind;
