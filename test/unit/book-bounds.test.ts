import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { ManuscriptError } from '../../src/audiobook/manuscript-files';
import { readBook } from '../../src/audiobook/read-book';
import { MAX_NESTING } from '../../src/audiobook/sources/book-bounds';
import { makePlainEpub, plainXhtml } from '../helpers/book-files';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
async function bookFile(name: string, bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'book-bounds-'));
  dirs.push(dir);
  await writeFile(path.join(dir, name), bytes);
  return path.join(dir, name);
}

const bookText = (book: Awaited<ReturnType<typeof readBook>>): number =>
  book.chapters.reduce((sum, chapter) => sum + chapter.text.length, 0);

/** A DOCX whose one paragraph sits `depth` elements deep (content controls, two elements each). */
function deepDocx(depth: number): Uint8Array {
  const document = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:sdt><w:sdtContent>'.repeat(depth / 2)}<w:p><w:r><w:t>Deep inside, a sentence.</w:t></w:r></w:p>${'</w:sdtContent></w:sdt>'.repeat(depth / 2)}</w:body></w:document>`;
  return zipSync({ 'word/document.xml': strToU8(document) });
}

const refusal = (pattern: RegExp) => (error: Error) => error instanceof ManuscriptError && pattern.test(error.message);

describe('book expansion is bounded', () => {
  it('reads a document that the spine lists many times once', async () => {
    const chapter = plainXhtml(`<h1>Only</h1>${'<p>A sentence that is read once. And another one.</p>'.repeat(2_000)}`);
    const once = await readBook(await bookFile('once.epub', makePlainEpub({ documents: { 'c.xhtml': chapter } })));
    const repeated = await readBook(
      await bookFile(
        'repeated.epub',
        makePlainEpub({ documents: { 'c.xhtml': chapter }, spine: Array<string>(200).fill('c.xhtml') }),
      ),
    );
    assert.equal(bookText(repeated), bookText(once));
    assert.equal(repeated.epub!.spineItems.length, 1);
  });

  it('refuses a book holding more text than a manuscript may, naming the bound', async () => {
    const documents: Record<string, string> = {};
    for (let n = 0; n < 5; n++)
      documents[`c${n}.xhtml`] = plainXhtml(`<p>${'Word and word again. '.repeat(90_000)}</p>`);
    await assert.rejects(
      readBook(await bookFile('long.epub', makePlainEpub({ documents }))),
      refusal(/long\.epub holds more than 8 M characters of text/),
    );
  });

  it('cuts one endless paragraph into sentences and paragraphs a voice can read', async () => {
    const endless = `<p>${'and on and on '.repeat(30_000)}</p>`;
    const book = await readBook(
      await bookFile('endless.epub', makePlainEpub({ documents: { 'c.xhtml': plainXhtml(endless) } })),
    );
    const paragraphs = book.chapters.flatMap((chapter) => chapter.paragraphs ?? []);
    assert.ok(paragraphs.length > 30, `${paragraphs.length} paragraphs`);
    for (const paragraph of paragraphs) {
      assert.ok(paragraph.sentences.reduce((sum, sentence) => sum + sentence.text.length + 1, 0) <= 10_001);
      for (const sentence of paragraph.sentences) assert.ok(sentence.text.length <= 2_000, `${sentence.text.length}`);
    }
    assert.equal(bookText(book), 'and on and on '.repeat(30_000).trim().length + paragraphs.length - 1);
  });

  it('refuses a 50 MB document at once instead of running out of memory', async () => {
    const huge = plainXhtml(`<p>${'x'.repeat(50 * 1024 * 1024)}</p>`);
    await assert.rejects(
      readBook(await bookFile('huge.epub', makePlainEpub({ documents: { 'c.xhtml': huge } }))),
      refusal(/huge\.epub \(OEBPS\/c\.xhtml\) is 50 MB of text, more than the 32 MB one document of a book may hold/),
    );
  });

  it('reads XHTML, a DOCX and an NCX nested thousands deep, and refuses deeper nesting by name', async () => {
    const depth = MAX_NESTING - 10;
    const deepBody = `${'<div>'.repeat(depth)}<p>Deep inside, a sentence.</p>${'</div>'.repeat(depth)}`;
    const deepNcx = `<?xml version="1.0" encoding="UTF-8"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>${'<navPoint><navLabel><text>Deep</text></navLabel><content src="c.xhtml"/>'.repeat(depth)}${'</navPoint>'.repeat(depth)}</navMap></ncx>`;
    const epub = await readBook(
      await bookFile('deep.epub', makePlainEpub({ documents: { 'c.xhtml': plainXhtml(deepBody) }, ncx: deepNcx })),
    );
    // The NCX's one top entry says nothing of the chapters, so the document is read as one chapter without a title of its own.
    assert.deepEqual(
      epub.chapters.map((chapter) => [chapter.title, chapter.text]),
      [['Part 1', 'Deep inside, a sentence.']],
    );
    const docx = await readBook(await bookFile('deep.docx', deepDocx(depth)));
    assert.deepEqual(
      docx.chapters.map((chapter) => chapter.text),
      ['Deep inside, a sentence.'],
    );
    const deeper = `${'<div>'.repeat(MAX_NESTING + 1)}<p>Too deep.</p>${'</div>'.repeat(MAX_NESTING + 1)}`;
    await assert.rejects(
      readBook(await bookFile('deeper.epub', makePlainEpub({ documents: { 'c.xhtml': plainXhtml(deeper) } }))),
      refusal(/deeper\.epub \(OEBPS\/c\.xhtml\) nests its elements more than 5000 deep/),
    );
    await assert.rejects(
      readBook(await bookFile('deeper.docx', deepDocx(MAX_NESTING + 2))),
      refusal(/deeper\.docx \(word\/document\.xml\) nests its elements more than 5000 deep/),
    );
  });
});
