/** The `book` job kind: an audiobook export, its plan in the job's folder, the book written where the user asked. */
import { promises as fs } from 'node:fs';
import type { AudiobookFormat, BookPlan, BookResult } from '../../audiobook/book-plan';
import { isCount, isLocalOrigin, isString } from './checks';
import { isKind, type JobKindModule, type LocalOrigin, type NewJob } from './job-kind';

/** A book job's plan (src/audiobook/book-plan.ts); the book itself goes where the user asked. */
export const BOOK_PLAN_FILE = 'book.json';

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

/** An admitted audiobook export (src/jobs/book-admission.ts); only the editor and the CLI make them. */
export interface NewBookJob extends NewJob {
  origin: LocalOrigin;
  name: string;
  /** The manuscript as the caller gave it. */
  input: string;
  plan: BookPlan;
}

const isBook = isKind('book');

export const bookKind: JobKindModule<'book', BookJobInput, BookResult, NewBookJob> = {
  kind: 'book',
  seedKind: null,
  label: 'Audiobook',
  noun: 'audiobook',
  phrase: 'an audiobook export',
  openWith: 'reveal',

  /** The plan goes to the job's folder, so the store keeps only counts. */
  async input(job, folder) {
    await fs.writeFile(folder.file(BOOK_PLAN_FILE), JSON.stringify(job.plan), 'utf8');
    const passages = job.plan.chapters.flatMap((chapter) => chapter.passages);
    const input: BookJobInput = {
      kind: 'book',
      input: job.input,
      out: job.plan.out,
      format: job.plan.format,
      perChapter: job.plan.perChapter,
      chapters: job.plan.chapters.length,
      paragraphs: passages.length,
      characters: passages.reduce((sum, p) => sum + p.text.length, 0),
    };
    return { input, name: job.name };
  },

  task: (job, paths) => ({
    kind: 'book',
    planPath: paths.file(job.id, BOOK_PLAN_FILE),
    workDir: paths.dir(job.id),
    dataDir: paths.dataDir,
  }),

  outputFile: () => null,
  userOutput: (job) => job.input.out,

  inputProblem(input, origin) {
    if (!isLocalOrigin(origin)) return 'origin: a book job comes from the editor or the command line';
    if (!(
      isString(input.input) &&
      isString(input.out) &&
      (input.format === 'm4b' || input.format === 'mp3' || input.format === 'epub3') &&
      typeof input.perChapter === 'boolean'
    ))
      return 'input: is not a book export';
    if (!(isCount(input.chapters) && isCount(input.paragraphs) && isCount(input.characters)))
      return "input: lacks the book's counts";
    return undefined;
  },

  resultOf(job) {
    return isBook(job) ? job.result : null;
  },
};
