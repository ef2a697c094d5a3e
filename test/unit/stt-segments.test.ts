import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSegments, type SegmentPlacement } from '../../src/engine/stt/build-segments';
import { stripPunctuation } from '../../src/engine/stt/strip-punctuation';
import { toWhisperLanguage } from '../../src/models/whisper-languages';

const identity: SegmentPlacement = { toDecodedSeconds: (t) => t, offsetSeconds: 0, endSeconds: 11, punctuation: true };
const seg = (text: string, startMs: number, endMs: number) => ({ text, startMs, endMs });

describe('buildSegments', () => {
  it('trims whisper text, converts milliseconds to seconds and times words by their length, saying so', () => {
    assert.deepEqual(buildSegments([seg(' ab cd', 1000, 2000), seg(' efgh.', 2000, 2500)], identity), {
      text: 'ab cd efgh.',
      segments: [
        {
          start: 1,
          end: 2,
          text: 'ab cd',
          words: [
            { start: 1, end: 1.5, text: 'ab', probability: null, timing: 'estimated' },
            { start: 1.5, end: 2, text: 'cd', probability: null, timing: 'estimated' },
          ],
        },
        {
          start: 2,
          end: 2.5,
          text: 'efgh.',
          words: [{ start: 2, end: 2.5, text: 'efgh.', probability: null, timing: 'estimated' }],
        },
      ],
      wordTiming: 'estimated',
    });
  });

  it('adds the crop start back and clamps to the cropped part; text past its end joins the segment before', () => {
    const cropped = { ...identity, offsetSeconds: 2, endSeconds: 8 };
    const { segments } = buildSegments([seg(' one', 0, 7000), seg(' two', 7000, 9000)], cropped);
    assert.deepEqual(
      segments.map(({ start, end, text }) => ({ start, end, text })),
      [{ start: 2, end: 8, text: 'one two' }],
    );
  });

  it('maps times back through the VAD timeline', () => {
    const throughVad = { ...identity, toDecodedSeconds: (t: number) => t * 2, endSeconds: 100 };
    const { segments } = buildSegments([seg(' x', 1000, 1500)], throughVad);
    assert.deepEqual([segments[0]?.start, segments[0]?.end], [2, 3]);
  });

  it('never lets a segment start before the previous one ends', () => {
    const { segments } = buildSegments([seg(' a', 0, 3000), seg(' b', 2000, 4000)], identity);
    assert.deepEqual(
      segments.map(({ start, end }) => [start, end]),
      [
        [0, 3],
        [3, 4],
      ],
    );
  });

  it('gives a first segment squeezed against the end a 10 ms span of its own', () => {
    const { segments } = buildSegments([seg(' late', 11_000, 12_000)], identity);
    assert.deepEqual(
      segments.map(({ start, end }) => [start, end]),
      [[10.99, 11]],
    );
  });

  it('drops segments left without text, and strips punctuation when punctuation is off', () => {
    const noPunctuation = { ...identity, punctuation: false };
    const { text, segments } = buildSegments(
      [seg(" Well, I'm here.", 0, 1000), seg(' ...', 1000, 2000)],
      noPunctuation,
    );
    assert.equal(text, "Well I'm here");
    assert.deepEqual(
      segments.map((s) => s.text),
      ["Well I'm here"],
    );
    assert.deepEqual(
      segments[0]?.words.map((w) => w.text),
      ['Well', "I'm", 'here'],
    );
  });

  it('joins the full text the way whisper spaced it, which is right for scripts without spaces', () => {
    assert.equal(buildSegments([seg('你好。', 0, 1000), seg('世界', 1000, 2000)], identity).text, '你好。世界');
  });
});

describe('stripPunctuation', () => {
  it('removes sentence punctuation and keeps what belongs to words and numbers', () => {
    assert.equal(stripPunctuation(" Well, I don't know... 3.5% of it? "), "Well I don't know 3.5% of it");
    assert.equal(
      stripPunctuation('A well-known, "quoted" (aside) — and/or 1,000 at 10:30!'),
      'A well-known quoted aside and/or 1,000 at 10:30',
    );
    assert.equal(stripPunctuation('¿Qué tal? ¡Bien!'), 'Qué tal Bien');
    assert.equal(stripPunctuation("dogs' toys"), 'dogs toys');
  });

  it('drops Chinese and Japanese punctuation without adding spaces', () => {
    assert.equal(stripPunctuation('你好，世界。'), '你好世界');
  });
});

describe('toWhisperLanguage', () => {
  it('keeps auto, reduces BCP-47 tags to whisper codes and refuses unknown languages', () => {
    assert.equal(toWhisperLanguage('auto'), 'auto');
    assert.equal(toWhisperLanguage('en-US'), 'en');
    assert.equal(toWhisperLanguage('PT-br'), 'pt');
    assert.equal(toWhisperLanguage('nb'), 'no');
    assert.equal(toWhisperLanguage('yue'), 'yue');
    assert.equal(toWhisperLanguage('xx'), null);
  });
});
