import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { captionFormatOf, captionText, lastCueEnd, nextCueNumber } from '../../src/subtitles/caption-file';

describe('live captions appended to a subtitle file the user may edit', () => {
  it('starts a new SRT at cue 1 and a new WebVTT with its header', () => {
    assert.equal(
      captionText('srt', '', { start: 1.5, end: 3.25, text: ' Hello\nthere. ' }),
      '1\n00:00:01,500 --> 00:00:03,250\nHello there.\n\n',
    );
    assert.equal(
      captionText('vtt', '', { start: 61, end: 62, text: 'Hi.', speaker: 'Ann' }),
      'WEBVTT\n\n00:01:01.000 --> 00:01:02.000\n<v Ann>Hi.\n\n',
    );
  });

  it('numbers after the cues the file holds now, and adds the blank line an edit took away', () => {
    const edited = '1\n00:00:01,000 --> 00:00:02,000\nOne.\n\n2\n00:00:03,000 --> 00:00:04,000\nTwo, edited';
    assert.equal(nextCueNumber(edited), 3);
    assert.equal(
      captionText('srt', edited, { start: 5, end: 6, text: 'Three.' }),
      '\n\n3\n00:00:05,000 --> 00:00:06,000\nThree.\n\n',
    );
    assert.equal(captionText('srt', `${edited}\n`, { start: 5, end: 6, text: 'x' }).startsWith('\n3\n'), true);
    assert.equal(captionText('srt', `${edited}\n\n`, { start: 5, end: 6, text: 'x' }).startsWith('3\n'), true);
  });

  it('resumes after the latest cue end, and knows its formats', () => {
    assert.equal(lastCueEnd(''), 0);
    assert.equal(
      lastCueEnd('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\na\n\n01:00:00.000 --> 01:00:01.250\nb\n'),
      3601.25,
    );
    assert.equal(lastCueEnd('1\n00:00:09,000 --> 00:00:10,000\na\n\n2\n00:00:03,000 --> 00:00:04,000\nb\n'), 10);
    assert.equal(captionFormatOf('Live.SRT'), 'srt');
    assert.equal(captionFormatOf('live.vtt'), 'vtt');
    assert.equal(captionFormatOf('live.txt'), null);
  });

  it('never ends a cue before it starts', () => {
    assert.match(captionText('srt', '', { start: 2, end: 1, text: 'x' }), /00:00:02,000 --> 00:00:02,001/);
  });
});
