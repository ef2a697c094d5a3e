/**
 * The cast's one rule (src/cast/cast-voices.ts) as the audiobook, Read Aloud and Narrate Selection use it: which
 * stretches of a text a character's voice reads, Read Aloud's sentences cut at those stretches, and the SSML
 * Narrate Selection sends as one job.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chapterPassages } from '../../src/audiobook/passages';
import type { CastFile } from '../../src/cast/cast-file';
import { castSsml, castVoiceSpans } from '../../src/cast/cast-voices';
import { castSentences } from '../../src/read-aloud/cast-sentences';
import { readingSentences } from '../../src/text/reading-sentences';
import { parseSsml } from '../../src/text/ssml/parse-ssml';

const CAST: CastFile = {
  characters: {
    Ann: { voice: 'Ann Voice', gender: 'female', age: 'adult' },
    Bob: { voice: null, gender: 'male', age: 'adult' },
  },
  lines: {
    'Hello there, Bob,': { speaker: 'Ann' },
    'Fine.': { speaker: 'Bob' },
    'Go & see.': { speaker: 'Ann', corrected: true },
  },
};
const TEXT = 'Ann opened the door. “Hello there, Bob,” she said.\n\n“Fine.” Bob sat down.\n\n"Go & see." She left.';

describe('cast voices', () => {
  it('finds the quotes whose speaker has a voice, by offsets in the whole text; an unvoiced speaker is the reader', () => {
    const spans = castVoiceSpans(TEXT, CAST);
    assert.deepEqual(
      spans.map((span) => [TEXT.slice(span.start, span.end), span.voice]),
      [
        ['“Hello there, Bob,”', 'Ann Voice'],
        ['"Go & see."', 'Ann Voice'],
      ],
    );
    assert.deepEqual(castVoiceSpans(TEXT, { characters: {}, lines: {} }), []);
  });

  it('reads the same quotes in the audiobook as in Read Aloud', () => {
    const { passages } = chapterPassages(TEXT, {}, undefined, CAST);
    assert.deepEqual(
      passages.filter((passage) => passage.voice).map((passage) => passage.text),
      ['Hello there, Bob,', 'Go & see.'],
    );
  });

  it('cuts Read Aloud sentences where the voice changes, keeping each word at its place in the document', () => {
    const sentences = castSentences(readingSentences(TEXT, 'plain'), castVoiceSpans(TEXT, CAST));
    assert.deepEqual(
      sentences.map((sentence) => [sentence.text, sentence.voice]),
      [
        ['Ann opened the door.', undefined],
        ['“Hello there, Bob,”', 'Ann Voice'],
        ['she said.', undefined],
        ['“Fine.”', undefined],
        ['Bob sat down.', undefined],
        ['"Go & see."', 'Ann Voice'],
        ['She left.', undefined],
      ],
    );
    for (const sentence of sentences) {
      assert.equal(TEXT.slice(sentence.start, sentence.end).replace(/\s+/g, ' ').trim(), sentence.text);
      sentence.text
        .split(' ')
        .forEach((word, at) =>
          assert.equal(TEXT.slice(sentence.wordStarts[at], sentence.wordStarts[at] + word.length), word),
        );
    }
  });

  it('leaves the sentences alone without a voiced quote', () => {
    const sentences = readingSentences(TEXT, 'plain');
    assert.deepEqual(castSentences(sentences, []), sentences);
  });

  it('gives Narrate Selection SSML whose voiced quotes are <voice> elements, the rest escaped text', () => {
    const ssml = castSsml(TEXT, castVoiceSpans(TEXT, CAST));
    assert.match(ssml, /^<speak>Ann opened the door\. <voice name="Ann Voice">“Hello there, Bob,”<\/voice> she said\./);
    assert.match(ssml, /<voice name="Ann Voice">&quot;Go &amp; see\.&quot;<\/voice> She left\.<\/speak>$/);
    assert.deepEqual(parseSsml(ssml).voices, ['Ann Voice']);
  });
});
