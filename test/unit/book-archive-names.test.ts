import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ManuscriptError } from '../../src/audiobook/manuscript-files';
import { readAlongFromEpub } from '../../src/audiobook/read-along/package-plan';
import { readBook } from '../../src/audiobook/read-book';
import { makeEpub3, makeRenamedEpub } from '../helpers/book-files';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
async function bookFile(name: string, bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'archive-names-'));
  dirs.push(dir);
  await writeFile(path.join(dir, name), bytes);
  return path.join(dir, name);
}

/** A name an unzip tool would place inside its target folder, and a reading system inside the book. */
const isSafe = (name: string): boolean =>
  !name.startsWith('/') &&
  !name.includes('\\') &&
  name.split('/').every((part) => part && part !== '.' && part !== '..');

describe('archive entry names read from a book', () => {
  it('refuses an EPUB whose entries climb out of the archive (../), naming the entry', async () => {
    const file = await bookFile('climbing.epub', makeRenamedEpub(makeEpub3(), 'climbing'));
    await assert.rejects(
      readBook(file),
      (error: Error) =>
        error instanceof ManuscriptError && /"[^"]*\.\.\/[^"]*", which points outside the archive/.test(error.message),
    );
  });

  it('reads an EPUB whose names start with / or hold ./, and plans a read-along book whose names are all plain', async () => {
    const file = await bookFile('absolute.epub', makeRenamedEpub(makeEpub3(), 'absolute'));
    const book = await readBook(file);
    assert.equal(book.epub!.packagePath, 'OEBPS/content.opf');
    assert.deepEqual(
      book.chapters.map((chapter) => chapter.title),
      ['Cover', 'Copyright', 'The Harbour', 'The Storm', 'Index'],
    );
    const plan = readAlongFromEpub(book.epub!, file, book.chapters.slice(2, 4));
    const names = [
      plan.packagePath,
      ...plan.copied,
      ...plan.written.map((entry) => entry.path),
      ...plan.manifest.map((item) => item.path),
    ];
    assert.deepEqual(
      names.filter((name) => !isSafe(name)),
      [],
    );
    assert.ok(plan.copied.includes('OEBPS/images/pixel.png'), plan.copied.join(' '));
  });
});
