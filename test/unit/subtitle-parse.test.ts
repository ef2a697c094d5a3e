import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSubtitles, SubtitleError } from '../../src/subtitles/parse';

const at = (text: string, format: 'srt' | 'vtt'): number => {
  try {
    parseSubtitles(text, format);
  } catch (error) {
    assert.ok(error instanceof SubtitleError);
    return error.line;
  }
  throw new Error('expected a SubtitleError');
};

describe('parseSubtitles (SRT)', () => {
  it('reads cues with a BOM, CRLF, extra blank lines, styling and coordinates', () => {
    const srt =
      '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> <font color="red">there</font>!\r\n\r\n\r\n' +
      '2\r\n00:00:03,000 --> 00:00:04,000 X1:10 X2:20 Y1:5 Y2:9\r\n{\\an8}Second &amp; last\r\nline two\r\n';
    assert.deepEqual(parseSubtitles(srt, 'srt'), [
      { index: 1, start: 1, end: 2.5, line: 2, text: 'Hello there!' },
      { index: 2, start: 3, end: 4, line: 7, text: 'Second & last line two' },
    ]);
  });

  it('tolerates missing numbers, a missing blank line, text run on after a blank line, short times and dots', () => {
    const srt =
      '00:00:01,000 --> 00:00:02,000\nOne\n2\n00:00:03.5 --> 00:00:04,250\nTwo\n\nstill two\n\n3\n0:05,000 --> 0:06,000\r[MUSIC] ♪ Three ♪';
    assert.deepEqual(
      parseSubtitles(srt, 'srt').map(({ start, end, text }) => [start, end, text]),
      [
        [1, 2, 'One'],
        [3.5, 4.25, 'Two still two'],
        [5, 6, 'Three'],
      ],
    );
  });

  it('finds speakers in "Name:" prefixes and sorts cues by time', () => {
    const srt =
      '1\n00:00:05,000 --> 00:00:06,000\nBOB: Later.\n\n2\n00:00:01,000 --> 00:00:02,000\n- Mary Ann: First!\n- Reply\n';
    assert.deepEqual(
      parseSubtitles(srt, 'srt').map(({ index, text, speaker }) => [index, text, speaker]),
      [
        [2, 'First! Reply', 'Mary Ann'],
        [1, 'Later.', 'BOB'],
      ],
    );
  });

  it('does not take labels such as "Note:" for speakers', () => {
    const [cue] = parseSubtitles('1\n00:00:01,000 --> 00:00:02,000\nNote: the bridge is closed.\n', 'srt');
    assert.deepEqual([cue.text, cue.speaker], ['Note: the bridge is closed.', undefined]);
  });

  it('names the line of what it cannot read', () => {
    assert.equal(at('1\n00:00:01,000 -> 00:00:02,000\nx\n', 'srt'), 2);
    assert.equal(at('1\n00:00:01,000 --> 00:0x:02,000\nx\n', 'srt'), 2);
    assert.equal(at('\n\n1\n00:00:05,000 --> 00:00:02,000\nx\n', 'srt'), 4);
    assert.equal(at('Just some text\nwith no cues\n', 'srt'), 1);
    assert.equal(at('', 'srt'), 1);
    assert.match(new SubtitleError(4, 'the cue ends before it starts').message, /^line 4: /);
  });
});

describe('parseSubtitles (WebVTT)', () => {
  it('reads the header, skips NOTE/STYLE/REGION blocks and cue settings, and finds <v> speakers', () => {
    const vtt =
      'WEBVTT - Title\nKind: captions\nLanguage: en\n\nSTYLE\n::cue { color: red }\n\nNOTE a note\nover two lines\n\n' +
      'intro\n00:01.000 --> 00:02.000 align:start position:10%\n<v Bob>Hi <c.yellow>there</c></v>\n\n' +
      '00:00:03.000 --> 00:00:04.000\n<v.loud Mary Ann>Hey <00:00:03.500><b>you</b>\n\n' +
      '00:00:05.000 --> 00:00:06.000\n<ruby>漢<rt>kan</rt></ruby> ok\n';
    assert.deepEqual(parseSubtitles(vtt, 'vtt'), [
      { index: 1, start: 1, end: 2, line: 12, text: 'Hi there', speaker: 'Bob' },
      { index: 2, start: 3, end: 4, line: 15, text: 'Hey you', speaker: 'Mary Ann' },
      { index: 3, start: 5, end: 6, line: 18, text: '漢 ok' },
    ]);
  });

  it('requires the WEBVTT header and at least one cue', () => {
    assert.equal(at('00:01.000 --> 00:02.000\nx\n', 'vtt'), 1);
    assert.equal(at('WEBVTT\n\n', 'vtt'), 3);
    assert.equal(at('WEBVTT\n\n00:01.000 --> 00:00.500\nx\n', 'vtt'), 3);
  });
});
