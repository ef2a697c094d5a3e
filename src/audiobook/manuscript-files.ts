/**
 * Reads a manuscript (a Markdown file, or a folder of .md files in name order) after checking it, so a bad
 * input is refused with one sentence before any synthesis: only regular files are opened (the one check of
 * src/local-files/user-files.ts: a FIFO would wait forever), a sub-folder named `*.md` is named as such, the whole manuscript is bounded in size, and text that
 * is not UTF-8 (a binary file) is refused at once.
 */
import type { Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { requireRegularFile } from '../local-files/user-files';
import { parseManuscript, type Chapter } from './manuscript';
import { parseSpeakerList } from './passages';

/** The most a manuscript may hold, all files together: a long novel is 1–2 MB of Markdown. */
export const MAX_MANUSCRIPT_BYTES = 8 * 1024 * 1024;

/** A manuscript that cannot be read as one; the message is one sentence for the user. */
export class ManuscriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManuscriptError';
  }
}

export interface ManuscriptBook {
  title: string | undefined;
  author: string | undefined;
  speakers: Record<string, string>;
  chapters: Chapter[];
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function statOrNone(file: string): Promise<Stats | undefined> {
  return stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw new ManuscriptError(`${file} cannot be read (${error.code ?? error.message}).`);
  });
}

/** The files to read, in reading order, each checked to be a regular file; their total size is bounded. */
export async function manuscriptFiles(input: string): Promise<Array<{ file: string; bytes: number }>> {
  const info = await statOrNone(input);
  if (!info) throw new ManuscriptError(`There is no manuscript at ${input}.`);
  let files: Array<{ file: string; bytes: number }>;
  if (!info.isDirectory()) {
    files = [{ file: input, bytes: (await requireRegularFile(input, 'manuscript')).size }];
  } else {
    const names = (await readdir(input))
      .filter((name) => /\.(md|txt)$/i.test(name))
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    if (names.length === 0) throw new ManuscriptError(`The folder ${input} holds no .md files.`);
    files = [];
    for (const name of names) {
      const file = path.join(input, name);
      const entry = await statOrNone(file);
      if (!entry) throw new ManuscriptError(`${file} is a link to nothing; remove it or point it at a Markdown file.`);
      if (entry.isDirectory())
        throw new ManuscriptError(
          `${file} is a folder, not a Markdown file; rename it or move it out of the manuscript folder.`,
        );
      files.push({ file, bytes: (await requireRegularFile(file, 'manuscript')).size });
    }
  }
  const total = files.reduce((sum, f) => sum + f.bytes, 0);
  if (total > MAX_MANUSCRIPT_BYTES) {
    throw new ManuscriptError(
      `The manuscript is ${megabytes(total)}, more than the ${megabytes(MAX_MANUSCRIPT_BYTES)} an export reads; split it into several books.`,
    );
  }
  return files;
}

/** The file's text; refused when it is not UTF-8 or holds NUL bytes (a binary file). */
async function readText(file: string, expectedBytes: number): Promise<string> {
  const bytes = await readFile(file);
  // A file that grew since it was checked is still bounded.
  if (bytes.length > Math.max(expectedBytes, MAX_MANUSCRIPT_BYTES))
    throw new ManuscriptError(`${file} grew while it was read; try again.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ManuscriptError(
      `${file} is not UTF-8 text (is it a binary file?); save the manuscript as UTF-8 Markdown.`,
    );
  }
  if (text.includes('\u0000'))
    throw new ManuscriptError(`${file} holds NUL bytes, so it is a binary file, not Markdown.`);
  return text;
}

/** The manuscript's chapters, in reading order, with the first title, author and speakers the files give. */
export async function readManuscript(input: string, chapterLevel?: number): Promise<ManuscriptBook> {
  const chapters: Chapter[] = [];
  let title: string | undefined;
  let author: string | undefined;
  const speakers: Record<string, string> = {};
  for (const { file, bytes } of await manuscriptFiles(input)) {
    const book = parseManuscript(await readText(file, bytes), path.basename(file, path.extname(file)), chapterLevel);
    title ??= book.title;
    author ??= book.author;
    Object.assign(speakers, parseSpeakerList(book.speakers));
    chapters.push(...book.chapters);
  }
  if (chapters.length === 0) throw new ManuscriptError(`${input} has no text to read.`);
  return { title, author, speakers, chapters };
}
