import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { makeCalibreEpub2, makeLibreOfficeDocx, makeOldEpub2, makePandocEpub3 } from '../helpers/book-files';
import { runCli } from '../helpers/cli';
import { epubcheck, readOverlays } from '../helpers/epubcheck';
import { useWorkDirs } from '../helpers/temp';

const workDir = useWorkDirs();

/** The book exported as a read-along EPUB 3; EPUBCheck finds no error in it. */
async function readAlong(name: string, bytes: Uint8Array, extra: string[] = []) {
  const dir = await workDir();
  const input = path.join(dir, name);
  await writeFile(input, bytes);
  const out = path.join(dir, 'read-along.epub');
  const common = ['--data-dir', path.join(dir, 'data')];
  const listed = await runCli(['audiobook', input, '--list-chapters', ...common]);
  const result = await runCli(['audiobook', input, '--out', out, '--format', 'epub3', ...common, ...extra]);
  assert.equal(result.code, 0, result.stderr);
  const check = await epubcheck(out);
  assert.deepEqual(check.errors, [], check.output);
  return { chapters: listed.stdout, book: readOverlays(new Uint8Array(await readFile(out))) };
}

describe('read-along EPUBs from the books producers make pass EPUBCheck', () => {
  it("from calibre's EPUB 2: chapters from the headings (its one-entry contents says Start), the SVG cover page declared", async () => {
    const { chapters, book } = await readAlong('calibre.epub', makeCalibreEpub2());
    assert.match(chapters, /^\s+1\s+Chapter One\n\s+2\s+Chapter Two\n?$/);
    assert.match(book.text('content.opf'), /<item id="titlepage" href="titlepage.xhtml" [^>]*properties="svg"/);
  });

  it('from an older EPUB 2: a Latin-1 chapter, and a notes document outside the spine with the XHTML 1.1 doctype', async () => {
    const { book } = await readAlong('old.epub', makeOldEpub2());
    assert.match(book.text('index_split_001.html'), /Café naïve, a ship came in/);
    assert.match(book.text('notes.xhtml'), /^<\?xml[^>]*>\n<!DOCTYPE html>/);
    assert.match(book.text('notes.xhtml'), /<meta http-equiv="Content-Type" content="text\/html; charset=utf-8"\/>/);
  });

  it("from pandoc's EPUB 3, word by word", async () => {
    const { chapters, book } = await readAlong('pandoc.epub', makePandocEpub3(), ['--overlay', 'word']);
    assert.match(chapters, /Arrival\n\s+3\s+Departure/);
    assert.ok(book.clips.length > 5, `${book.clips.length} clips`);
  });

  it("from LibreOffice's DOCX", async () => {
    const { chapters } = await readAlong('keeper.docx', makeLibreOfficeDocx());
    assert.match(chapters, /Night Watch\n\s+\d\s+Morning/);
  });
});
