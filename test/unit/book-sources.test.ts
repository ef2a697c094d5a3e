import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { parseChapterSelection, selectChapters } from '../../src/audiobook/chapter-selection';
import { ManuscriptError } from '../../src/audiobook/manuscript-files';
import { readBook } from '../../src/audiobook/read-book';
import { markSentences } from '../../src/audiobook/sources/xhtml-sentences';
import { makeDocx, makeEpub2, makeEpub3 } from '../helpers/book-files';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
async function bookFile(name: string, bytes: Uint8Array | string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'book-sources-'));
  dirs.push(dir);
  await writeFile(path.join(dir, name), bytes);
  return path.join(dir, name);
}

/** The marked document with the added spans and ids taken out again. */
const unmarked = (marked: string): string =>
  marked
    .replace(/<span id="ss\d+-\d+">/g, '')
    .replace(/<\/span>/g, '')
    .replace(/ id="ss\d+-\d+"/g, '');

describe('books in: EPUB, DOCX, chapter selection', () => {
  it("reads an EPUB 3's chapters from its nav in spine order, splitting a document at a fragment link, and marks front and back matter", async () => {
    const book = await readBook(await bookFile('book.epub', makeEpub3()));
    assert.equal(book.title, 'The Harbour Book');
    assert.equal(book.author, 'Ann Writer');
    assert.deepEqual(
      book.chapters.map((chapter) => [chapter.title, chapter.matter]),
      [
        ['Cover', 'front'],
        ['Copyright', 'front'],
        ['The Harbour', 'body'],
        ['The Storm', 'body'],
        ['Index', 'back'],
      ],
    );
    const harbour = book.chapters[2];
    assert.deepEqual(
      harbour.paragraphs!.map((paragraph) => paragraph.sentences.map((sentence) => sentence.text)),
      [
        ['The Harbour'],
        ['Koa arrived at the harbour at dawn.', 'The boats were still asleep.'],
        ['Mr. Smith waved from the pier & smiled.', 'Welcome home, Koa.', 'She waved back.'],
      ],
    );
    // A sentence ending inside <em> is read together with the next, whose end is outside it.
    assert.deepEqual(
      book.chapters[3].paragraphs![1].sentences.map((sentence) => sentence.text),
      ['The wind rose in the night. The sea grew loud.'],
    );
    assert.deepEqual(
      selectChapters(book.chapters, undefined).map((chapter) => chapter.title),
      ['The Harbour', 'The Storm'],
    );
  });

  it("adds only sentence ids to the book's XHTML, each one on an element holding exactly that sentence", async () => {
    const book = await readBook(await bookFile('book.epub', makeEpub3()));
    const original = strFromU8(unzipSync(makeEpub3())['OEBPS/text/chapters.xhtml']);
    const marked = book.epub!.documents.get('OEBPS/text/chapters.xhtml')!.marked;
    assert.notEqual(marked, original);
    assert.equal(unmarked(marked), original);
    assert.match(marked, /<span id="ss3-3">The boats were <em>still<\/em> asleep\.<\/span>/);
    assert.match(marked, /<em><span id="ss3-5">Welcome home, Koa\.<\/span><\/em>/);
  });

  it('gives a paragraph whose sentences cannot be wrapped its own id, and keeps one it already has', () => {
    const source =
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>One <em>two. Three</em></p><p id="mine">Four <b>five. Six</b></p></body></html>';
    const { marked, markedWords, blocks } = markSentences(source, 'x');
    assert.deepEqual(
      blocks.map((block) => block.sentences.map(({ id, text }) => ({ id, text }))),
      [[{ id: 'x1', text: 'One two. Three' }], [{ id: 'mine', text: 'Four five. Six' }]],
    );
    assert.equal(marked, source.replace('<p>', '<p id="x1">'));
    // Word by word, the paragraph's words still get spans of their own (ids of ours, whatever the paragraph's id).
    assert.equal(
      markedWords,
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p id="x1"><span id="x1w1">One</span> <em><span id="x1w2">two</span>. <span id="x1w3">Three</span></em></p><p id="mine"><span id="x2w1">Four</span> <b><span id="x2w2">five</span>. <span id="x2w3">Six</span></b></p></body></html>',
    );
  });

  it("reads an EPUB 2 from its NCX, in spine order, with the old DTD's named entities", async () => {
    const book = await readBook(await bookFile('old.epub', makeEpub2()));
    assert.deepEqual(
      book.chapters.map((chapter) => chapter.title),
      ['Chapter One', 'Chapter Two'],
    );
    assert.equal(book.chapters[0].paragraphs![1].sentences[0].text, 'The first words came slowly.');
    assert.equal(book.author, 'Bob Author');
  });

  it('reads a DOCX with its top headings as chapters, leaving out deleted text', async () => {
    const book = await readBook(await bookFile('tales.docx', makeDocx()));
    assert.deepEqual([book.title, book.author], ['Harbour Tales', 'Ann Writer']);
    assert.deepEqual(
      book.chapters.map((chapter) => chapter.title),
      ['Harbour Tales', 'The Harbour', 'The Storm'],
    );
    assert.equal(
      book.chapters[1].text,
      'The Harbour\n\nKoa arrived at dawn.\n\nA part of it\n\nThe boats were asleep.',
    );
    assert.equal(book.chapters[2].text, 'The Storm\n\nThe wind rose & the sea grew loud.');
    const deeper = await readBook(await bookFile('tales.docx', makeDocx()), 2);
    assert.deepEqual(
      deeper.chapters.map((chapter) => chapter.title),
      ['Harbour Tales', 'The Harbour', 'A part of it', 'The Storm'],
    );
  });

  it('refuses a file that is not the archive its name says, with one sentence', async () => {
    await assert.rejects(
      readBook(await bookFile('fake.epub', 'plain text, not a zip')),
      (error: Error) => error instanceof ManuscriptError && /not a readable zip archive/.test(error.message),
    );
    await assert.rejects(
      readBook(await bookFile('fake.docx', makeEpub3())),
      (error: Error) => error instanceof ManuscriptError && /no word\/document\.xml/.test(error.message),
    );
    await assert.rejects(
      readBook(await bookFile('fake.epub', makeDocx())),
      (error: Error) => error instanceof ManuscriptError && /no META-INF\/container\.xml/.test(error.message),
    );
  });

  it('parses chapter lists like 3-7,9 and refuses malformed or out-of-range ones', () => {
    assert.deepEqual(parseChapterSelection('3-5,1, 4', 9), [0, 2, 3, 4]);
    assert.throws(() => parseChapterSelection('2-', 9), /not like 3-7,9/);
    assert.throws(() => parseChapterSelection('8-10', 9), /names chapters 8-10, but the book has chapters 1-9/);
    assert.throws(() => parseChapterSelection('0', 9), /names chapter 0/);
    assert.throws(() => parseChapterSelection('5-3', 9), /names chapters 5-3/);
  });
});

describe('sentence ids', () => {
  it('never repeat an id the book already uses', async () => {
    const { strToU8, unzipSync: unzip, zipSync } = await import('fflate');
    const files = unzip(makeEpub3());
    files['OEBPS/text/chapters.xhtml'] = strToU8(
      strFromU8(files['OEBPS/text/chapters.xhtml']).replace('<h1>The Harbour</h1>', '<h1 id="ss3-1">The Harbour</h1>'),
    );
    const book = await readBook(await bookFile('taken.epub', zipSync(files)));
    const marked = book.epub!.documents.get('OEBPS/text/chapters.xhtml')!.marked;
    const ids = [...marked.matchAll(/id="([^"]+)"/g)].map((match) => match[1]);
    assert.equal(new Set(ids).size, ids.length, ids.join(' '));
    assert.ok(book.chapters[2].paragraphs![0].sentences[0].id.startsWith('ss3-1-'));
  });
});
