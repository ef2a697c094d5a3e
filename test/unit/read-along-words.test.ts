import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordAnchors, wordRanges } from '../../src/audiobook/read-along/word-anchors';
import { wordClips } from '../../src/audiobook/read-along/word-clips';
import { markSentences } from '../../src/audiobook/sources/xhtml-sentences';

const DOC =
  '<html xmlns="http://www.w3.org/1999/xhtml"><body><p id="a">It was <em>un</em>done, don&rsquo;t   you <b>see it</b>? Yes &amp; no.</p><p>in the <em>night. The sea</em> grew loud.</p></body></html>';

describe('read-along words (word-level Media Overlays)', () => {
  it('puts a span with an id around every word of every sentence, inside text nodes only, and changes nothing else', () => {
    const marked = markSentences(DOC, 'x');
    assert.equal(
      marked.markedWords,
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p id="a"><span id="x1"><span id="x1w1">It</span> <span id="x1w2">was</span> <em><span id="x1w3">un</span></em><span id="x1w4">done</span>, <span id="x1w5">don&rsquo;t</span>   <span id="x1w6">you</span> <b><span id="x1w7">see</span> <span id="x1w8">it</span></b>?</span> <span id="x2"><span id="x2w1">Yes</span> &amp; <span id="x2w2">no</span>.</span></p><p><span id="x3"><span id="x3w1">in</span> <span id="x3w2">the</span> <em><span id="x3w3">night</span>. <span id="x3w4">The</span> <span id="x3w5">sea</span></em> <span id="x3w6">grew</span> <span id="x3w7">loud</span>.</span></p></body></html>',
    );
    assert.equal(marked.markedWords.replace(/<span id="x\dw\d">([^<]*)<\/span>/g, '$1'), marked.marked);
    // Each sentence's words are its text's words, once each, in order (a word split by markup in its pieces).
    for (const sentence of marked.blocks.flatMap((block) => block.sentences)) {
      const pieces = sentence.words!.map((word) => sentence.text.slice(word.start, word.end));
      assert.equal(
        pieces.join('|').replace(/\bun\|done\b/, 'undone'),
        wordRanges(sentence.text)
          .map((range) => sentence.text.slice(range.start, range.end))
          .join('|'),
      );
    }
  });

  it('times words from the voice\'s word events, words it said otherwise ("3" as "three") between their neighbours, in strict order inside the sentence', () => {
    const text = "We had 3 boats, didn't we?";
    const words = wordAnchors(text, 'w');
    const spoken = [
      { text: 'We', seconds: 0.05 },
      { text: 'had', seconds: 0.2 },
      { text: 'three', seconds: 0.4 },
      { text: 'boats', seconds: 0.7 },
      { text: "didn't", seconds: 1.2 },
      { text: 'we', seconds: 1.5 },
    ];
    const clips = wordClips(text, words, spoken, 1.8);
    assert.deepEqual(
      clips.map((clip) => clip.id),
      ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'],
    );
    assert.deepEqual(
      clips.map((clip) => clip.begin),
      [0.05, 0.2, clips[2].begin, 0.7, 1.2, 1.5],
    );
    assert.ok(clips[2].begin > 0.2 && clips[2].begin < 0.7, `"3" begins at ${clips[2].begin}`);
    for (const [index, clip] of clips.entries()) {
      assert.ok(clip.end > clip.begin, `${clip.id} is empty`);
      if (index > 0) assert.equal(clip.begin, clips[index - 1].end);
    }
    assert.equal(clips[clips.length - 1].end, 1.8);
  });

  it('estimates words in proportion to their characters when the voice gives no word times', () => {
    const text = 'aa bbbb c';
    const clips = wordClips(text, wordAnchors(text, 'w'), null, 1.0);
    // Weights are characters plus one: 3, 5, 2 of 10.
    assert.deepEqual(
      clips.map((clip) => [clip.begin, clip.end]),
      [
        [0, 0.3],
        [0.3, 0.8],
        [0.8, 1],
      ],
    );
  });

  it('shares a word split by markup between its pieces by characters', () => {
    const text = 'It was undone.';
    const words = [
      { id: 'a', start: 0, end: 2 },
      { id: 'b', start: 3, end: 6 },
      { id: 'c', start: 7, end: 9 },
      { id: 'd', start: 9, end: 13 },
    ];
    const clips = wordClips(
      text,
      words,
      [
        { text: 'It', seconds: 0 },
        { text: 'was', seconds: 0.2 },
        { text: 'undone', seconds: 0.5 },
      ],
      1.1,
    );
    assert.deepEqual(
      clips.map((clip) => [clip.id, clip.begin, clip.end]),
      [
        ['a', 0, 0.2],
        ['b', 0.2, 0.5],
        ['c', 0.5, 0.7],
        ['d', 0.7, 1.1],
      ],
    );
  });
});
