import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { corpusWordErrors, scoringWords, wordErrors } from '../../src/text/word-error-rate';

describe('word error rate', () => {
  it('normalizes case, punctuation, hyphens and curly apostrophes before scoring', () => {
    assert.deepEqual(scoringWords('Ask not—what YOUR country’s "well-being" can do!'), [
      'ask',
      'not',
      'what',
      'your',
      "country's",
      'well',
      'being',
      'can',
      'do',
    ]);
    assert.equal(
      wordErrors('not to stop more than ten minutes by the way', 'Not to stop more than ten minutes, by the way.').wer,
      0,
    );
  });

  it('counts substitutions, deletions and insertions separately', () => {
    const errors = wordErrors('the cat sat on the mat', 'the bat sat on mat');
    assert.deepEqual(
      { s: errors.substitutions, d: errors.deletions, i: errors.insertions, n: errors.referenceWords },
      { s: 1, d: 1, i: 0, n: 6 },
    );
    assert.equal(errors.wer, 2 / 6);
    const inserted = wordErrors('ask not', 'ask not now');
    assert.deepEqual(
      { s: inserted.substitutions, d: inserted.deletions, i: inserted.insertions },
      { s: 0, d: 0, i: 1 },
    );
  });

  it('scores an empty hypothesis as every word deleted, and extra words past 100%', () => {
    assert.equal(wordErrors('one two three', '').wer, 1);
    assert.equal(wordErrors('one', 'one two three four').wer, 3);
    assert.equal(wordErrors('', '').wer, 0);
    assert.equal(wordErrors('', 'noise').wer, 1);
  });

  it('pools a corpus by total reference words, not by averaging clips', () => {
    const errors = corpusWordErrors([
      { reference: 'a b c d e f g h i j', hypothesis: 'a b c d e f g h i j' },
      { reference: 'short', hypothesis: 'wrong' },
    ]);
    assert.equal(errors.referenceWords, 11);
    assert.equal(errors.wer, 1 / 11);
  });
});
