import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SegmentPlacement } from '../../src/engine/stt/build-segments';
import { wordsFromPieces } from '../../src/engine/stt/recognized-words';
import { compactSpeech } from '../../src/engine/stt/speech-timeline';
import { segmentsFromPieces } from '../../src/engine/stt/word-segments';

const piece = (text: string, startMs: number, endMs: number) => ({ text, startMs, endMs });
const identity: SegmentPlacement = { toDecodedSeconds: (t) => t, offsetSeconds: 0, endSeconds: 11, punctuation: true };

/** Pieces as whisper.cpp gives them with maxLen 1: one token each, each ending where the next starts. */
const JFK = [
  piece(' And', 320, 620),
  piece(' so', 620, 880),
  piece(' my', 880, 1100),
  piece(' fellow', 1100, 1420),
  piece(' Amer', 1420, 1700),
  piece('icans', 1700, 2000),
  piece(',', 2000, 3200),
  piece(' ask', 3200, 3500),
  piece(' not', 3500, 4100),
  piece('.', 4100, 4300),
];

describe('wordsFromPieces', () => {
  it("merges tokens into words by their leading space, keeping the tokens' times", () => {
    const words = wordsFromPieces(JFK, JFK.map((p) => p.text).join(''));
    assert.deepEqual(
      words?.map((w) => [w.text, w.startMs, w.endMs, w.estimated]),
      [
        [' And', 320, 620, false],
        [' so', 620, 880, false],
        [' my', 880, 1100, false],
        [' fellow', 1100, 1420, false],
        [' Americans,', 1420, 3200, false],
        [' ask', 3200, 3500, false],
        [' not.', 3500, 4300, false],
      ],
    );
  });

  it('makes each token of a script without spaces a word of its own', () => {
    const pieces = [piece('你好', 0, 400), piece('，', 400, 500), piece('世界', 500, 900)];
    assert.deepEqual(
      wordsFromPieces(pieces, '你好，世界')?.map((w) => w.text),
      ['你好', '，', '世界'],
    );
  });

  it('repairs a character cut across two tokens from the whole text, over the span of both', () => {
    // "東" is three bytes; a token boundary inside it leaves U+FFFD in both pieces.
    const pieces = [piece(' x', 0, 100), piece('\uFFFD', 100, 300), piece('\uFFFD', 300, 500), piece('京', 500, 700)];
    const words = wordsFromPieces(pieces, ' x東京');
    assert.deepEqual(
      words?.map((w) => [w.text, w.startMs, w.endMs, w.estimated]),
      [
        [' x', 0, 100, false],
        ['東', 100, 500, false],
        ['京', 500, 700, false],
      ],
    );
  });

  it('shares a repaired run that holds several words among them and marks them estimated', () => {
    const pieces = [piece(' caf\uFFFD', 0, 400), piece('\uFFFD au', 400, 1000), piece(' lait', 1000, 1400)];
    const words = wordsFromPieces(pieces, ' café au lait');
    assert.deepEqual(
      words?.map((w) => [w.text, w.estimated]),
      [
        [' café', true],
        [' au', true],
        [' lait', false],
      ],
    );
    assert.equal(words?.[0]?.startMs, 0);
    assert.equal(words?.[1]?.endMs, 1000);
  });

  it('gives null when the pieces do not line up with the text', () => {
    assert.equal(wordsFromPieces([piece('\uFFFD', 0, 100), piece(' b', 100, 200)], ' a c'), null);
  });

  it("lets a lone space token start the word after it, at that word's time", () => {
    const words = wordsFromPieces([piece(' a', 0, 100), piece(' ', 100, 300), piece('"b', 300, 400)], ' a "b');
    assert.deepEqual(
      words?.map((w) => [w.text, w.startMs]),
      [
        [' a', 0],
        [' "b', 300],
      ],
    );
  });
});

describe('segmentsFromPieces', () => {
  it("gives words the recognizer's times and says the transcript's timing is the recognizer's", () => {
    const built = segmentsFromPieces(JFK, JFK.map((p) => p.text).join(''), identity);
    assert.equal(built.wordTiming, 'recognizer');
    assert.equal(built.text, 'And so my fellow Americans, ask not.');
    assert.deepEqual(built.segments, [
      {
        start: 0.32,
        end: 4.3,
        text: 'And so my fellow Americans, ask not.',
        words: [
          { start: 0.32, end: 0.62, text: 'And', probability: null },
          { start: 0.62, end: 0.88, text: 'so', probability: null },
          { start: 0.88, end: 1.1, text: 'my', probability: null },
          { start: 1.1, end: 1.42, text: 'fellow', probability: null },
          { start: 1.42, end: 3.2, text: 'Americans,', probability: null },
          { start: 3.2, end: 3.5, text: 'ask', probability: null },
          { start: 3.5, end: 4.3, text: 'not.', probability: null },
        ],
      },
    ]);
  });

  it('starts a new segment after a sentence and at a long pause', () => {
    const pieces = [piece(' One.', 0, 500), piece(' Two', 500, 900), piece(' three', 2500, 3000)];
    const built = segmentsFromPieces(pieces, ' One. Two three', identity);
    assert.deepEqual(
      built.segments.map((s) => [s.text, s.start, s.end]),
      [
        ['One.', 0, 0.5],
        ['Two', 0.5, 0.9],
        ['three', 2.5, 3],
      ],
    );
  });

  it('strips punctuation from words and drops words that were only punctuation', () => {
    const built = segmentsFromPieces(JFK, JFK.map((p) => p.text).join(''), { ...identity, punctuation: false });
    assert.deepEqual(
      built.segments.flatMap((s) => s.words.map((w) => w.text)),
      ['And', 'so', 'my', 'fellow', 'Americans', 'ask', 'not'],
    );
    assert.equal(built.segments[0]?.text, 'And so my fellow Americans ask not');
  });

  it('never starts or ends a word inside a pause VAD cut out', () => {
    // Speech at 1–2 s and 5–6 s; whisper saw 1 s + 0.1 s gap + 1 s. A word whose token runs into the gap
    // ends where the speech ends; the next word, timed inside the gap, starts where speech starts again.
    const timeline = compactSpeech(
      new Int16Array(16000 * 7),
      [
        { start: 1, end: 2 },
        { start: 5, end: 6 },
      ],
      16000,
    );
    const placement = { ...identity, toDecodedSeconds: timeline.toSourceSeconds };
    const built = segmentsFromPieces([piece(' a', 0, 1050), piece(' b', 1050, 2100)], ' a b', placement);
    const words = built.segments.flatMap((s) => s.words.map((w) => [w.text, w.start, w.end]));
    assert.deepEqual(words, [
      ['a', 1, 2],
      ['b', 5, 6],
    ]);
  });

  it('keeps words in the cropped part and in order, each ending no earlier than it starts', () => {
    const cropped = { ...identity, offsetSeconds: 2, endSeconds: 4 };
    const built = segmentsFromPieces(
      [piece(' a', 0, 1000), piece(' b', 900, 3000), piece(' c', 3000, 5000)],
      ' a b c',
      cropped,
    );
    const words = built.segments.flatMap((s) => s.words);
    assert.deepEqual(
      words.map((w) => [w.text, w.start, w.end]),
      [
        ['a', 2, 3],
        ['b', 3, 4],
        ['c', 4, 4],
      ],
    );
  });

  it('falls back to one span of estimated words when the pieces cannot be lined up', () => {
    const built = segmentsFromPieces([piece('\uFFFD', 0, 1000), piece(' b', 1000, 2000)], ' a c', identity);
    assert.equal(built.wordTiming, 'estimated');
    assert.deepEqual(
      built.segments.map((s) => s.text),
      ['a c'],
    );
    assert.ok(built.segments[0]?.words.every((w) => w.timing === 'estimated'));
  });

  it('says a transcript with both kinds of words is mixed', () => {
    const pieces = [piece(' caf\uFFFD', 0, 400), piece('\uFFFD au', 400, 1000), piece(' lait', 1000, 1400)];
    assert.equal(segmentsFromPieces(pieces, ' café au lait', identity).wordTiming, 'mixed');
  });

  it('gives nothing for no pieces', () => {
    assert.deepEqual(segmentsFromPieces([], '', identity), { text: '', segments: [], wordTiming: 'recognizer' });
  });
});
