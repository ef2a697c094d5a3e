/**
 * Exporting an audiobook, as every door does it (the editor's command, the CLI): admit the request
 * (manuscript, output place, voices, the lexicon with the caller's entries winning), queue a `book` job,
 * and wait for it to end; a book that did not finish leaves no partial file behind. The job runs in the
 * engine process like any other, shows its progress and is cancelled like any other.
 */
import path from 'node:path';
import type { BookResult } from '../audiobook/book-plan';
import type { LexiconEntry } from '../contract/types';
import type { Validators } from '../contract/validation';
import { entriesIn } from '../lexicon/apply-lexicon';
import type { VoiceLibrary } from '../voices/library';
import { admitBook, type BookRequest } from './book-admission';
import type { VerifyTestHooks } from './verify-admission';
import type { JobService } from './job-service';
import { finishPartialOutputJob } from './wait-for-job';
import { jobKindOf } from './kinds';
import { bookKind } from './kinds/book';
import type { LocalOrigin } from './kinds/job-kind';
import type { JobRecord } from './types';

export interface BookExportDeps {
  jobs: JobService;
  voices: VoiceLibrary;
  validators: Validators;
  /** Test hooks from the composition root, asked at each export (never set in use). */
  testHooks?(): VerifyTestHooks;
}

export interface NewBookExport extends BookRequest {
  origin: LocalOrigin;
  /** Entries that win over the data directory's lexicon (the editor's workspace lexicon). */
  lexicon?: readonly LexiconEntry[];
}

/** Admits the export and queues its job; throws the refusal (one sentence) before any synthesis. */
export async function createBookExport(deps: BookExportDeps, request: NewBookExport): Promise<JobRecord> {
  const { origin, lexicon: over, ...book } = request;
  const lexicon = await deps.jobs.lexiconWith(over ?? []);
  const plan = await admitBook(book, {
    voices: deps.voices,
    validators: deps.validators,
    lexicon,
    dataDir: deps.jobs.dataDir,
    testHooks: deps.testHooks?.(),
  });
  const text = plan.chapters.flatMap((chapter) => chapter.passages.map((passage) => passage.text)).join('\n\n');
  plan.lexicon = entriesIn(text, lexicon);
  const name = `Audiobook ${plan.title ?? path.basename(request.input)}`;
  return deps.jobs.create(bookKind, { origin, name, input: request.input, plan });
}

/** Waits for a book job to end (aborting `signal` cancels it); an unfinished book leaves no partial file or folder. */
export async function finishBookExport(
  jobs: JobService,
  job: JobRecord,
  signal?: AbortSignal,
): Promise<{ job: JobRecord; result: BookResult | null }> {
  const ended = await finishPartialOutputJob(jobs, job, () => jobKindOf(job.kind).userOutput?.(job), signal);
  return { job: ended, result: bookKind.resultOf(ended) };
}
