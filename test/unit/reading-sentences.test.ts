import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readingKind, readingSentences, sourceRange } from '../../src/text/reading-sentences';

/** Each sentence's text with the source it highlights. */
const read = (
  source: string,
  ...args: Parameters<typeof readingSentences> extends [string, ...infer R] ? R : never
): [string, string][] => readingSentences(source, ...args).map((s) => [s.text, source.slice(s.start, s.end)]);

describe('Read Aloud sentences with their source ranges', () => {
  it('splits plain text at sentence ends and blank lines, never at a line break inside a paragraph', () => {
    assert.deepEqual(read('One sentence. Another one\nruns on! "Quoted."\n\nNew paragraph', 'plain'), [
      ['One sentence.', 'One sentence.'],
      ['Another one runs on!', 'Another one\nruns on!'],
      ['"Quoted."', '"Quoted."'],
      ['New paragraph', 'New paragraph'],
    ]);
  });

  it('reads Markdown as prose: headings and list items end sentences, markup and link targets are silent, code is skipped', () => {
    const md = [
      '---',
      'title: Front matter',
      '---',
      '# The *Title* #',
      '',
      'Text with a [link](https://example.com/a.b "t") and `code`. **Bold** ends.',
      '- item one',
      '2. item **two**',
      '> quoted line',
      '> goes on.',
      '',
      '```js',
      'const skipped = "Not read.";',
      '```',
      '![An image](pic.png)',
      '[ref]: https://example.com',
      '---',
      '| cell a | cell b |',
      '|---|---|',
    ].join('\n');
    assert.deepEqual(read(md, 'markdown'), [
      ['The Title', '# The *Title*'.slice(2)],
      ['Text with a link and code .', 'Text with a [link](https://example.com/a.b "t") and `code`.'],
      ['Bold ends.', '**Bold** ends.'],
      ['item one', 'item one'],
      ['item two', 'item **two**'],
      ['quoted line goes on.', 'quoted line\n> goes on.'],
      ['An image', '![An image](pic.png)'],
      ['cell a', 'cell a'],
      ['cell b', 'cell b'],
    ]);
  });

  it('reads only the comments of source code, without their markers, and not a comment marker inside a string', () => {
    const ts = [
      '// Adds two numbers.',
      '// It has no side effects',
      'const url = "http://example.com"; // trailing note',
      '/**',
      ' * Block comment. Second sentence.',
      ' */',
      'const x = 1;',
    ].join('\n');
    assert.deepEqual(read(ts, 'comments', 'typescript'), [
      ['Adds two numbers.', 'Adds two numbers.'],
      ['It has no side effects', 'It has no side effects'],
      ['trailing note', 'trailing note'],
      ['Block comment.', 'Block comment.'],
      ['Second sentence.', 'Second sentence.'],
    ]);
    assert.deepEqual(read('x = 1  # Set x.\n# Then print it\nprint("# not this")', 'comments', 'python'), [
      ['Set x.', 'Set x.'],
      ['Then print it', 'Then print it'],
    ]);
  });

  it('limits the sentences to a range, cutting those it splits', () => {
    const text = 'First one. Second one. Third one.';
    assert.deepEqual(read(text, 'plain', '', 13, 27), [
      ['cond one.', 'cond one.'],
      ['Thir', 'Thir'],
    ]);
  });

  it('knows which languages are read by their comments', () => {
    assert.equal(readingKind('markdown'), 'markdown');
    assert.equal(readingKind('typescript'), 'comments');
    assert.equal(readingKind('python'), 'comments');
    assert.equal(readingKind('plaintext'), 'plain');
  });

  it('maps a word of the spoken text back to its place in the source', () => {
    const source = '# Heading\n\nSee the **bold** [word](http://x) now.';
    const sentence = readingSentences(source, 'markdown')[1];
    assert.equal(sentence.text, 'See the bold word now.');
    for (const word of ['bold', 'word', 'now']) {
      const at: number = sentence.text.indexOf(word);
      const range: { start: number; end: number } = sourceRange(sentence, at, at + word.length)!;
      assert.equal(source.slice(range.start, range.end), word);
    }
  });
});
