import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { removeEntry, replaceEntry } from '../../src/lexicon/lexicon-edits';

const nguyen = { text: 'Nguyen', say: 'win' };
const gif = { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' as const };

describe('lexicon edits', () => {
  it('replaces an entry in place and keeps the others as written', () => {
    assert.deepEqual(replaceEntry([nguyen, gif], nguyen, { text: 'Nguyen', say: 'nwen' }), [
      { text: 'Nguyen', say: 'nwen' },
      gif,
    ]);
  });
  it('adds the entry when the old one is gone, and a renamed entry replaces one with the new text', () => {
    assert.deepEqual(replaceEntry([gif], nguyen, nguyen), [gif, nguyen]);
    assert.deepEqual(replaceEntry([nguyen, gif], nguyen, { text: 'GIF', say: 'jif' }), [{ text: 'GIF', say: 'jif' }]);
  });
  it('removes one entry by its text and language', () => {
    assert.deepEqual(removeEntry([nguyen, gif], { text: 'Nguyen', say: 'other' }), [gif]);
    assert.deepEqual(removeEntry([gif], nguyen), [gif]);
  });
});
