import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chapterMetadata } from '../../src/audiobook/chapter-metadata';
import { parseManuscript } from '../../src/audiobook/manuscript';

describe('parseManuscript', () => {
  const source = '---\ntitle: \'My Book\'\nauthor: A. Writer\n---\nA foreword.\n\n## One\nText one.\n### Deeper\nStill one.\n```\n## code, not a heading\n```\n## Two ##\nText two.\n## Part Three\n\n';

  it('splits at the top heading level, keeps the text before it, skips fenced code, and keeps a chapter that is only its heading (a part title)', () => {
    const book = parseManuscript(source, 'file');
    assert.deepEqual([book.title, book.author], ['My Book', 'A. Writer']);
    assert.deepEqual(book.chapters.map((c) => c.title), ['My Book', 'One', 'Two', 'Part Three']);
    assert.match(book.chapters[1].text, /^## One\nText one\.\n### Deeper\nStill one\.\n```/);
  });

  it('splits at a deeper level when told, and names a chapter without heading after the file', () => {
    assert.deepEqual(parseManuscript(source, 'file', 3).chapters.map((c) => c.title), ['My Book', 'One', 'Deeper', 'Two', 'Part Three']);
    assert.deepEqual(parseManuscript('\n\n# Only\nText.', 'file').chapters.map((c) => c.title), ['Only'], 'nothing before the heading, no chapter for it');
    assert.deepEqual(parseManuscript('Just text.', 'notes').chapters, [{ title: 'notes', text: 'Just text.' }]);
  });
});

describe('chapterMetadata', () => {
  it('writes FFMETADATA1 chapters end to end in milliseconds, with special characters escaped', () => {
    const text = chapterMetadata({ title: 'A=B', author: 'C;D' }, [{ title: 'One #1', seconds: 1.5 }, { title: 'Two\\', seconds: 2 }]);
    assert.equal(text, [
      ';FFMETADATA1', 'title=A\\=B', 'album=A\\=B', 'artist=C\\;D', 'album_artist=C\\;D',
      '[CHAPTER]', 'TIMEBASE=1/1000', 'START=0', 'END=1500', 'title=One \\#1',
      '[CHAPTER]', 'TIMEBASE=1/1000', 'START=1500', 'END=3500', 'title=Two\\\\', '',
    ].join('\n'));
  });
});
