import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from '../../src/subtitles/edits';
import {
  cuesInLines,
  replaceCueTexts,
  spansOf,
  wordsByCue,
  SPAN_PADDING_SECONDS,
} from '../../src/subtitles/retranscribe';
import { DEFAULT_SUBTITLE_STYLE as STYLE } from '../../src/contract/subtitle-style';

const BOM = '\uFEFF';
const SRT =
  BOM +
  [
    '1',
    '00:00:00,300 --> 00:00:02,300',
    'And so my fellow',
    '',
    '2',
    '00:00:03,300 --> 00:00:04,400',
    'ask not',
    '',
    '3',
    '00:00:05,400 --> 00:00:07,700',
    'what your country',
    'can do for you',
    '',
    '4',
    '00:00:08,200 --> 00:00:10,600',
    'ask what you can do',
    '',
  ].join('\r\n');

const VTT = [
  'WEBVTT',
  '',
  'NOTE stays',
  '',
  'a',
  '00:01.000 --> 00:02.000 align:start',
  'one',
  '',
  'b',
  '00:02.000 --> 00:03.000',
  'two',
  '',
].join('\n');

const word = (start: number, end: number, text: string) => ({ start, end, text });

describe('choosing the cues and spans to re-transcribe', () => {
  it('takes every cue whose block a selection touches: its number, timing or text lines', () => {
    assert.deepEqual(cuesInLines(SRT, 'srt', [{ first: 1, last: 1 }]), [1], 'the number line');
    assert.deepEqual(cuesInLines(SRT, 'srt', [{ first: 3, last: 6 }]), [1, 2]);
    assert.deepEqual(
      cuesInLines(SRT, 'srt', [
        { first: 12, last: 12 },
        { first: 16, last: 16 },
      ]),
      [3, 4],
    );
    assert.deepEqual(cuesInLines(VTT, 'vtt', [{ first: 8, last: 8 }]), [1]);
  });

  it('makes one span a run of consecutive cues, padded but never into a cue not chosen', () => {
    assert.deepEqual(spansOf(SRT, 'srt', [2, 3]), [
      { cues: [2, 3], cropStartSeconds: 3.3 - SPAN_PADDING_SECONDS, cropEndSeconds: 7.7 + SPAN_PADDING_SECONDS },
    ]);
    assert.deepEqual(
      spansOf(SRT, 'srt', [1, 3]).map((s) => [s.cues, s.cropStartSeconds, s.cropEndSeconds]),
      [
        [[1], 0.05, 2.55],
        [[3], 5.15, 7.95],
      ],
    );
    // Cue b starts where cue a ends: no padding reaches into a.
    assert.deepEqual(spansOf(VTT, 'vtt', [2]), [{ cues: [2], cropStartSeconds: 2, cropEndSeconds: 3.25 }]);
    assert.deepEqual(spansOf(SRT, 'srt', []), []);
  });
});

describe('mapping recognized words back to the cues by time', () => {
  const cues = [
    { index: 2, start: 3.3, end: 4.4 },
    { index: 3, start: 5.4, end: 7.7 },
  ];

  it('gives a word to the cue it overlaps most, and a word in the gap to the nearer cue', () => {
    const mapped = wordsByCue(cues, [
      word(3.4, 3.8, ' ask'),
      word(3.9, 4.5, 'not'),
      word(4.6, 4.8, 'near-two'),
      word(5.1, 5.3, 'near-three'),
      word(5.45, 5.8, 'what'),
      word(7.5, 8.2, 'you'),
      word(0.1, 0.2, 'early'),
      word(9, 9.5, 'late'),
    ]);
    assert.deepEqual(Object.fromEntries(mapped), {
      2: ['early', 'ask', 'not', 'near-two'],
      3: ['near-three', 'what', 'you', 'late'],
    });
  });

  it('keeps the words in time order and drops empty ones', () => {
    assert.deepEqual(
      Object.fromEntries(wordsByCue(cues, [word(4, 4.2, 'b'), word(3.5, 3.7, 'a'), word(3.8, 3.9, '  ')])),
      { 2: ['a', 'b'], 3: [] },
    );
  });
});

describe("replacing the cues' text with what the recognizer returned", () => {
  it("replaces each cue of the span with its words in the style's lines, keeping the BOM and CRLF", () => {
    const words = ['zebra', 'quantum', 'lantern', 'ochre', 'violet', 'marble', 'hollow', 'tundra', 'saffron'].map(
      (text, i) => word(5.5 + i * 0.2, 5.65 + i * 0.2, text),
    );
    const outcome = replaceCueTexts(SRT, 'srt', STYLE, { cues: [2, 3] }, [word(3.4, 3.9, 'glimmer'), ...words]);
    assert.deepEqual(outcome.replaced, [2, 3]);
    assert.deepEqual(outcome.empty, []);
    const text = applyEdits(SRT, outcome.edits);
    assert.equal(
      text,
      SRT.replace('ask not', 'glimmer').replace(
        'what your country\r\ncan do for you',
        'zebra quantum lantern ochre violet\r\nmarble hollow tundra saffron',
      ),
    );
  });

  it('leaves a cue that got no word as it was, and says so', () => {
    const outcome = replaceCueTexts(SRT, 'srt', STYLE, { cues: [2, 3] }, [word(5.5, 6, 'only')]);
    assert.deepEqual([outcome.replaced, outcome.empty], [[3], [2]]);
    assert.equal(applyEdits(SRT, outcome.edits), SRT.replace('what your country\r\ncan do for you', 'only'));
  });

  it('keeps WebVTT identifiers, cue settings and NOTE blocks', () => {
    const outcome = replaceCueTexts(VTT, 'vtt', STYLE, { cues: [1, 2] }, [
      word(1.1, 1.5, 'uno'),
      word(2.1, 2.5, 'dos'),
    ]);
    assert.equal(applyEdits(VTT, outcome.edits), VTT.replace('\none\n', '\nuno\n').replace('\ntwo\n', '\ndos\n'));
  });
});
