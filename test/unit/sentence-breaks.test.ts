import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitIntoChunks } from '../../src/engine/tts/text-chunks';
import { sentenceEnds } from '../../src/text/sentence-breaks';
import { readingSentences } from '../../src/text/reading-sentences';

/** The sentences of `text` as cut by `sentenceEnds`, trimmed. */
function sentences(text: string, language = 'en'): string[] {
  const cuts = [0, ...sentenceEnds(text, language), text.length];
  return cuts
    .slice(1)
    .map((end, i) => text.slice(cuts[i], end).trim())
    .filter(Boolean);
}

describe('sentence ends', () => {
  it('does not end an English sentence after a title, an initial, a decimal number or e.g.', () => {
    const text =
      "Mr. Smith met Dr. Jones at St. Paul's. J. R. R. Tolkien wrote it in 7.5 seconds. Mrs. Hudson (e.g. the landlady) nodded. It was 5 p.m. when she left.";
    assert.deepEqual(sentences(text), [
      "Mr. Smith met Dr. Jones at St. Paul's.",
      'J. R. R. Tolkien wrote it in 7.5 seconds.',
      'Mrs. Hudson (e.g. the landlady) nodded.',
      'It was 5 p.m. when she left.',
    ]);
  });

  it('keeps a dialogue tag with its name', () => {
    assert.deepEqual(sentences('"Come in," said Mr. Holmes. "Sit down," replied Dr. Watson.'), [
      '"Come in," said Mr. Holmes.',
      '"Sit down," replied Dr. Watson.',
    ]);
  });

  it('ends at question and exclamation marks and at a full stop before a capital, whatever the word before', () => {
    assert.deepEqual(sentences('Is it Dr. Who? Yes! He ran. She left.'), [
      'Is it Dr. Who?',
      'Yes!',
      'He ran.',
      'She left.',
    ]);
    assert.deepEqual(sentences('See No. 5 on the list. No. It is not.'), [
      'See No. 5 on the list.',
      'No.',
      'It is not.',
    ]);
  });

  it('goes on after an ellipsis or a full stop followed by a lower-case word', () => {
    assert.deepEqual(sentences('Well... maybe later. Apples, pears etc. and more. Done.'), [
      'Well... maybe later.',
      'Apples, pears etc. and more.',
      'Done.',
    ]);
  });

  it('ends at a full stop inside closing quotes', () => {
    assert.deepEqual(sentences('He said "Go." Then he left.'), ['He said "Go."', 'Then he left.']);
  });

  it("knows each language's own abbreviations", () => {
    assert.deepEqual(sentences('Hr. Müller kam z.B. um 8 Uhr. Siehe S. 12 im Buch. Danke.', 'de'), [
      'Hr. Müller kam z.B. um 8 Uhr.',
      'Siehe S. 12 im Buch.',
      'Danke.',
    ]);
    assert.deepEqual(sentences('M. Dupont et Mme Martin sont là. Ils partent.', 'fr-FR'), [
      'M. Dupont et Mme Martin sont là.',
      'Ils partent.',
    ]);
    assert.deepEqual(sentences('La Sra. García llegó. El Sr. Pérez no.', 'es'), [
      'La Sra. García llegó.',
      'El Sr. Pérez no.',
    ]);
    assert.deepEqual(sentences('Il sig. Rossi e il dott. Bianchi. Arrivano.', 'it'), [
      'Il sig. Rossi e il dott. Bianchi.',
      'Arrivano.',
    ]);
    // The German title "Hr." is no abbreviation in English: there it ends the sentence before a capital.
    assert.deepEqual(sentences('It took one Hr. Then two.', 'en'), ['It took one Hr.', 'Then two.']);
  });

  it('cuts after CJK end punctuation with no space after it', () => {
    assert.deepEqual(sentences('今天很好。明天呢？好！', 'zh'), ['今天很好。', '明天呢？', '好！']);
  });
});

describe('the users of sentence ends', () => {
  it('Read Aloud reads a sentence with a title as one sentence', () => {
    const read = readingSentences('Mr. Smith said hello. Dr. Jones left.', 'plain').map((sentence) => sentence.text);
    assert.deepEqual(read, ['Mr. Smith said hello.', 'Dr. Jones left.']);
  });

  it('the engine does not cut a chunk between a title and its name', () => {
    assert.deepEqual(splitIntoChunks('Mr. Smith said hello. Dr. Jones left.', 25), [
      'Mr. Smith said hello.',
      'Dr. Jones left.',
    ]);
  });
});
