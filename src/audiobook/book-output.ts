/**
 * Where a book may be written, checked before any synthesis: the folder it goes into exists and is
 * writable, a book file is not a folder, and a folder of chapter files holds nothing but an earlier
 * export's MP3s (so replacing it loses nothing of the user's).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { requireWritableFolder } from '../local-files/user-files';
import { ManuscriptError } from './manuscript-files';

/** Whether `out` may take a new chapter export: absent, or a folder of an earlier one (nothing but .mp3 files). */
export async function checkChapterFolder(out: string): Promise<void> {
  const names = await readdir(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new ManuscriptError(`${out} is a file; one MP3 per chapter needs a folder.`);
    throw error;
  });
  if (names.some((name) => !name.toLowerCase().endsWith('.mp3'))) {
    throw new ManuscriptError(`${out} holds files other than an earlier export's MP3s; choose a new folder.`);
  }
}

/** Where an M4B mastered for ACX puts the chapter MP3s ACX takes: `book.m4b` → the folder `book-acx` beside it. */
export function acxFolderFor(out: string): string {
  return path.join(path.dirname(out), `${path.basename(out, path.extname(out))}-acx`);
}

export async function checkBookOutput(out: string, perChapter: boolean): Promise<void> {
  await requireWritableFolder(out, 'book');
  if (perChapter) return checkChapterFolder(out);
  const existing = await stat(out).catch(() => undefined);
  if (existing?.isDirectory())
    throw new ManuscriptError(`${out} is a folder; give the book a file name (e.g. book.m4b).`);
}
