import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_CHUNK_CHARS, splitIntoChunks } from '../../src/engine/tts/text-chunks';

describe('splitIntoChunks', () => {
  it('groups whole sentences up to the limit and keeps the text between them unchanged', () => {
    assert.deepEqual(splitIntoChunks('One. Two.\nThree', 9), ['One. Two.', 'Three']);
    assert.deepEqual(splitIntoChunks('Hello world.  How are you?\n\n\nFine! Thanks.', 100), [
      'Hello world.  How are you?\n\n\nFine! Thanks.',
    ]);
  });

  it('cuts at sentence ends and line breaks when sentences do not fit together', () => {
    assert.deepEqual(splitIntoChunks('One. Two.\nThree', 8), ['One.', 'Two.', 'Three']);
    assert.deepEqual(splitIntoChunks('Wait... what?! "Yes." (Really.) Ok', 10), [
      'Wait...',
      'what?!',
      '"Yes."',
      '(Really.)',
      'Ok',
    ]);
    assert.deepEqual(splitIntoChunks('A line\r\nAnother line', 12), ['A line', 'Another line']);
  });

  it('cuts after CJK sentence marks even without a following space', () => {
    assert.deepEqual(splitIntoChunks('中文。第二句！第三', 4), ['中文。', '第二句！', '第三']);
  });

  it('trims surrounding whitespace and gives nothing for blank text', () => {
    assert.deepEqual(splitIntoChunks('  Hello world.  How are you?   Fine!  ', 20), [
      'Hello world.',
      'How are you?   Fine!',
    ]);
    assert.deepEqual(splitIntoChunks('   \n\t  '), []);
    assert.deepEqual(splitIntoChunks(''), []);
  });

  it('splits an overlong sentence at spaces, never inside a word', () => {
    assert.deepEqual(splitIntoChunks('alpha beta gamma delta epsilon', 11), ['alpha beta', 'gamma delta', 'epsilon']);
    assert.deepEqual(splitIntoChunks('alpha beta gamma delta epsilon. Zeta eta.', 11), [
      'alpha beta',
      'gamma delta',
      'epsilon.',
      'Zeta eta.',
    ]);
  });

  it('cuts a word longer than the limit hard, and lets its last piece join what follows', () => {
    assert.deepEqual(splitIntoChunks('abcdefghijklmnop qr', 5), ['abcde', 'fghij', 'klmno', 'p qr']);
  });

  it('never cuts a surrogate pair in two', () => {
    assert.deepEqual(splitIntoChunks('😀😀😀', 3), ['😀', '😀', '😀']);
  });

  it('keeps every chunk of a long text within the default limit and loses no words', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog near the quiet river bank. ';
    const text = `${sentence.repeat(40)}\n${'word '.repeat(200)}`;
    const chunks = splitIntoChunks(text);
    assert.ok(chunks.every((chunk) => chunk.length <= DEFAULT_MAX_CHUNK_CHARS));
    assert.deepEqual(chunks.join(' ').split(/\s+/), text.trim().split(/\s+/));
    assert.equal(chunks[0], sentence.repeat(5).trim()); // five sentences (354 characters) fit in 400, six (425) do not
  });

  it('rejects a limit that is not a positive integer', () => {
    assert.throws(() => splitIntoChunks('text', 0), TypeError);
    assert.throws(() => splitIntoChunks('text', 2.5), TypeError);
  });
});
