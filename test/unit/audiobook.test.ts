import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AudioCache, cacheKey } from '../../src/audiobook/audio-cache';
import { chapterMetadata } from '../../src/audiobook/chapter-metadata';
import { parseManuscript } from '../../src/audiobook/manuscript';
import { chapterPassages, parseSpeakerList } from '../../src/audiobook/passages';

describe('parseManuscript', () => {
  const source =
    "---\ntitle: 'My Book'\nauthor: A. Writer\n---\nA foreword.\n\n## One\nText one.\n### Deeper\nStill one.\n```\n## code, not a heading\n```\n## Two ##\nText two.\n## Part Three\n\n";

  it('splits at the top heading level, keeps the text before it, skips fenced code, and keeps a chapter that is only its heading (a part title)', () => {
    const book = parseManuscript(source, 'file');
    assert.deepEqual([book.title, book.author], ['My Book', 'A. Writer']);
    assert.deepEqual(
      book.chapters.map((c) => c.title),
      ['My Book', 'One', 'Two', 'Part Three'],
    );
    assert.match(book.chapters[1].text, /^## One\nText one\.\n### Deeper\nStill one\.\n```/);
  });

  it('splits at a deeper level when told, and names a chapter without heading after the file', () => {
    assert.deepEqual(
      parseManuscript(source, 'file', 3).chapters.map((c) => c.title),
      ['My Book', 'One', 'Deeper', 'Two', 'Part Three'],
    );
    assert.deepEqual(
      parseManuscript('\n\n# Only\nText.', 'file').chapters.map((c) => c.title),
      ['Only'],
      'nothing before the heading, no chapter for it',
    );
    assert.deepEqual(parseManuscript('Just text.', 'notes').chapters, [{ title: 'notes', text: 'Just text.' }]);
  });
});

describe('chapterMetadata', () => {
  it('writes FFMETADATA1 chapters end to end in milliseconds, with special characters escaped', () => {
    const text = chapterMetadata({ title: 'A=B', author: 'C;D' }, [
      { title: 'One #1', seconds: 1.5 },
      { title: 'Two\\', seconds: 2 },
    ]);
    assert.equal(
      text,
      [
        ';FFMETADATA1',
        'title=A\\=B',
        'album=A\\=B',
        'artist=C\\;D',
        'album_artist=C\\;D',
        '[CHAPTER]',
        'TIMEBASE=1/1000',
        'START=0',
        'END=1500',
        'title=One \\#1',
        '[CHAPTER]',
        'TIMEBASE=1/1000',
        'START=1500',
        'END=3500',
        'title=Two\\\\',
        '',
      ].join('\n'),
    );
  });
});

describe('chapterPassages', () => {
  it('reads paragraphs, keeps a fenced block with blank lines whole, and drops blocks without words', () => {
    const { passages } = chapterPassages(
      '# Title\n\nOne.\nStill one.\n\n```\ncode\n\nmore code\n```\n\n---\n\nTwo.',
      {},
    );
    assert.deepEqual(
      passages.map((p) => p.text),
      ['# Title', 'One.\nStill one.', '```\ncode\n\nmore code\n```', 'Two.'],
    );
    assert.ok(passages.every((p) => p.voice === undefined));
  });

  it('switches voice at <!-- voice: --> until the next tag, carries it into the next chapter, and goes back with default', () => {
    const first = chapterPassages('A.\n\n<!-- voice: Narrator Two -->\n\nB.', {});
    assert.deepEqual(first.passages, [
      { text: 'A.', voice: undefined },
      { text: 'B.', voice: 'Narrator Two' },
    ]);
    const second = chapterPassages('C.\n\n<!--voice:default-->\n\nD.', {}, first.endVoice);
    assert.deepEqual(second.passages, [
      { text: 'C.', voice: 'Narrator Two' },
      { text: 'D.', voice: undefined },
    ]);
    assert.equal(second.endVoice, undefined);
  });

  it("gives a Name: paragraph to that speaker's voice (names case-insensitive), and leaves other colons alone", () => {
    const { passages } = chapterPassages('ann: Hello.\n\nNote: not a speaker.\n\nBob:no space, no speaker.', {
      Ann: 'voice-a',
    });
    assert.deepEqual(passages, [
      { text: 'Hello.', voice: 'voice-a' },
      { text: 'Note: not a speaker.', voice: undefined },
      { text: 'Bob:no space, no speaker.', voice: undefined },
    ]);
  });

  it('parses speaker lists with commas or semicolons, ignoring broken pairs', () => {
    assert.deepEqual(parseSpeakerList('Ann=English (Great Britain); Bob = German, =x, y='), {
      Ann: 'English (Great Britain)',
      Bob: 'German',
    });
    assert.deepEqual(parseSpeakerList(undefined), {});
    assert.equal(parseManuscript('---\nspeakers: Ann=German\n---\nText.', 'f').speakers, 'Ann=German');
  });
});

describe('AudioCache', () => {
  it('finds what it holds by key, and prunes only files unused for 30 days', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'audio-cache-'));
    try {
      const cache = new AudioCache(dir);
      const key = cacheKey({ text: 'a' });
      assert.notEqual(key, cacheKey({ text: 'b' }));
      assert.equal(await cache.get(key, 'wav'), undefined);
      await writeFile(path.join(dir, 'made.wav'), 'x');
      const stored = await cache.put(key, 'wav', path.join(dir, 'made.wav'));
      assert.equal(await cache.get(key, 'wav'), stored);
      const old = path.join(dir, 'old.wav');
      await writeFile(old, 'x');
      const longAgo = new Date(Date.now() - 31 * 86_400_000);
      await utimes(old, longAgo, longAgo);
      assert.equal(await cache.prune(), 1);
      assert.deepEqual((await readdir(dir)).sort(), [path.basename(stored)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
