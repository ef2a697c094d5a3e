import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCues, type CueSource } from '../../src/subtitles/cues';
import { layoutLines, type TextPiece } from '../../src/subtitles/line-layout';

const words = (text: string): TextPiece[] => text.split(' ').map((word) => ({ text: word, glued: false }));
const segment = (start: number, end: number, text: string, extra: Partial<CueSource> = {}): CueSource => ({
  start,
  end,
  text,
  ...extra,
});

describe('layoutLines', () => {
  it('keeps text that fits on one line on one line', () => {
    assert.deepEqual(layoutLines(words('Hello world.'), 42, 2), ['Hello world.']);
  });

  it('breaks two lines at the space nearest the middle', () => {
    assert.deepEqual(layoutLines(words('aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj'), 42, 2), [
      'aaaa bbbb cccc dddd eeee',
      'ffff gggg hhhh iiii jjjj',
    ]);
  });

  it('prefers the shorter top line when two breaks are equally balanced', () => {
    assert.deepEqual(layoutLines(words('aaaa bbbb cccc'), 9, 2), ['aaaa', 'bbbb cccc']);
  });

  it('returns null when the words need more lines than allowed', () => {
    assert.equal(layoutLines(words('aaaa bbbb cccc'), 4, 2), null);
  });

  it('joins glued slices of one long word without a space', () => {
    assert.deepEqual(
      layoutLines(
        [
          { text: 'abc', glued: false },
          { text: 'def', glued: true },
        ],
        6,
        1,
      ),
      ['abcdef'],
    );
  });
});

describe('buildCues', () => {
  it('makes one cue of a short segment', () => {
    assert.deepEqual(buildCues([segment(0, 2.5, 'Hello world.')]), [{ start: 0, end: 2.5, lines: ['Hello world.'] }]);
  });

  it('splits a long segment without word timestamps in proportion to characters, at most 7 s a cue', () => {
    // 20 words of 9 characters over 20 s: each word gets 1 s. Two lines hold 8 words (4 + 4), but 8 s is
    // over the 7 s limit, so cues take 7, 7 and 6 words.
    const ws = Array.from({ length: 20 }, (_, i) => `word${String(i).padStart(2, '0')}xyz`);
    const line = (from: number, to: number) => ws.slice(from, to).join(' ');
    assert.deepEqual(buildCues([segment(0, 20, ws.join(' '))]), [
      { start: 0, end: 7, lines: [line(0, 3), line(3, 7)] },
      { start: 7, end: 14, lines: [line(7, 10), line(10, 14)] },
      { start: 14, end: 20, lines: [line(14, 17), line(17, 20)] },
    ]);
  });

  it('splits at word boundaries using word timestamps when the segment has them', () => {
    // 12 words of 7 characters: a line holds 5 (39 characters), a cue 10.
    const ws = Array.from({ length: 12 }, (_, i) => `word${String.fromCharCode(65 + i).repeat(3)}`);
    const timed = ws.map((text, i) =>
      i < 10
        ? { text, start: i * 0.5, end: i * 0.5 + 0.4 }
        : { text, start: 8 + (i - 10) * 0.5, end: 8.5 + (i - 10) * 0.5 },
    );
    assert.deepEqual(buildCues([segment(0, 10, ws.join(' '), { words: timed })]), [
      { start: 0, end: 4.9, lines: [ws.slice(0, 5).join(' '), ws.slice(5, 10).join(' ')] },
      { start: 8, end: 9, lines: [ws.slice(10).join(' ')] },
    ]);
  });

  it('ends a cue where the next one starts, so cues never overlap', () => {
    assert.deepEqual(buildCues([segment(0, 3, 'First'), segment(2.5, 4, 'Second')]), [
      { start: 0, end: 2.5, lines: ['First'] },
      { start: 2.5, end: 4, lines: ['Second'] },
    ]);
  });

  it('lengthens a cue shorter than 1 s up to 1 s, but not into the next cue', () => {
    assert.deepEqual(buildCues([segment(0, 0.3, 'Hi.'), segment(0.8, 3, 'There you are.'), segment(5, 5.2, 'Yes.')]), [
      { start: 0, end: 0.8, lines: ['Hi.'] },
      { start: 0.8, end: 3, lines: ['There you are.'] },
      { start: 5, end: 6, lines: ['Yes.'] },
    ]);
  });

  it('keeps each segment and its speaker in its own cues, even when short', () => {
    const cues = buildCues([
      segment(0, 1, 'Hi', { speaker: 'Speaker 1' }),
      segment(1, 2, 'Hello', { speaker: 'Speaker 2' }),
    ]);
    assert.deepEqual(cues, [
      { start: 0, end: 1, lines: ['Hi'], speaker: 'Speaker 1' },
      { start: 1, end: 2, lines: ['Hello'], speaker: 'Speaker 2' },
    ]);
  });

  it('cuts text without spaces into line-long slices', () => {
    const text = 'あ'.repeat(100);
    assert.deepEqual(buildCues([segment(0, 10, text)]), [
      { start: 0, end: 4.2, lines: ['あ'.repeat(42)] },
      { start: 4.2, end: 10, lines: ['あ'.repeat(42), 'あ'.repeat(16)] },
    ]);
  });

  it('shows one long-lasting word for at most 7 s', () => {
    assert.deepEqual(buildCues([segment(0, 20, 'Hello')]), [{ start: 0, end: 7, lines: ['Hello'] }]);
  });

  it('makes no cue of a segment without text', () => {
    assert.deepEqual(buildCues([segment(0, 2, '   ')]), []);
  });

  it('gives zero-length segments at the same instant distinct, non-empty cues', () => {
    assert.deepEqual(buildCues([segment(1, 1, 'a'), segment(1, 1, 'b')]), [
      { start: 1, end: 1.001, lines: ['a'] },
      { start: 1.001, end: 2.001, lines: ['b'] },
    ]);
  });

  it('orders segments by start time', () => {
    assert.deepEqual(
      buildCues([segment(3, 4, 'later'), segment(0, 2, 'earlier')]).map((cue) => cue.lines[0]),
      ['earlier', 'later'],
    );
  });

  it('rejects limits that make no sense', () => {
    assert.throws(() => buildCues([], { maxLineChars: 0, maxLines: 2, minSeconds: 1, maxSeconds: 7 }), TypeError);
    assert.throws(() => buildCues([], { maxLineChars: 42, maxLines: 2, minSeconds: 8, maxSeconds: 7 }), TypeError);
  });
});
