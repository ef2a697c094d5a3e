/**
 * Reads any book an audiobook export takes, by its file name: an EPUB (2 or 3), a Word document (.docx), or
 * Markdown / plain text (a file or a folder, manuscript-files.ts). Archives are bounded in size and must be
 * regular files, as manuscripts are; the refusal is one sentence, before any synthesis.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { requireRegularFile } from '../local-files/user-files';
import type { Chapter } from './manuscript';
import { ManuscriptError, readManuscript, type ManuscriptBook } from './manuscript-files';
import { readDocx } from './sources/docx-reader';
import { readEpub, type EpubBook } from './sources/epub-reader';

/** The most an .epub or .docx file may weigh (images included). */
export const MAX_BOOK_ARCHIVE_BYTES = 64 * 1024 * 1024;

export interface ReadBook extends ManuscriptBook {
  /** The EPUB the book came from, kept for a read-along book that keeps its documents. */
  epub?: EpubBook;
  language?: string;
}

export function bookKind(input: string): 'epub' | 'docx' | 'manuscript' {
  const extension = path.extname(input).toLowerCase();
  return extension === '.epub' ? 'epub' : extension === '.docx' ? 'docx' : 'manuscript';
}

async function readArchive(input: string): Promise<Uint8Array> {
  const info = await requireRegularFile(input, 'book');
  if (info.size > MAX_BOOK_ARCHIVE_BYTES) {
    throw new ManuscriptError(
      `${input} is ${(info.size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_BOOK_ARCHIVE_BYTES / 1024 / 1024} MB an export reads.`,
    );
  }
  return new Uint8Array(await readFile(input));
}

/** The book's chapters, all of them (front and back matter marked), in reading order. */
export async function readBook(input: string, chapterLevel?: number): Promise<ReadBook> {
  const kind = bookKind(input);
  if (kind === 'manuscript') return readManuscript(input, chapterLevel);
  const bytes = await readArchive(input);
  const name = path.basename(input);
  if (kind === 'docx') {
    const docx = readDocx(bytes, name, chapterLevel);
    return {
      title: docx.title,
      author: docx.author,
      speakers: {},
      chapters: docx.chapters,
      ...(docx.language ? { language: docx.language } : {}),
    };
  }
  const epub = readEpub(bytes, name);
  const chapters: Chapter[] = epub.chapters.map((chapter) => ({
    title: chapter.title,
    matter: chapter.matter,
    paragraphs: chapter.paragraphs,
    text: chapter.paragraphs
      .map((paragraph) => paragraph.sentences.map((sentence) => sentence.text).join(' '))
      .join('\n\n'),
  }));
  return {
    title: epub.title,
    author: epub.author,
    speakers: {},
    chapters,
    epub,
    ...(epub.language ? { language: epub.language } : {}),
  };
}
