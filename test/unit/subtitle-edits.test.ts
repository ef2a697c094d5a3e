import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSubtitles } from '../../src/subtitles/check';
import {
  applyEdits,
  cueAtLine,
  extendIntoGap,
  layoutLines,
  mergeWithNext,
  pullBackOverlap,
  rebalanceCue,
  shiftTiming,
  splitCue,
  splitCueAt,
  SubtitleEditError,
} from '../../src/subtitles/edits';
import { DEFAULT_SUBTITLE_STYLE as STYLE } from '../../src/contract/subtitle-style';

const crlf = (...lines: string[]): string => lines.join('\r\n');
const BOM = '\uFEFF';

// An SRT as Windows tools write it: BOM, CRLF, a line too long, a cue too short, an overlap, a long cue.
const SRT =
  BOM +
  crlf(
    '1',
    '00:00:01,000 --> 00:00:04,000',
    'A line that is much, much longer than forty-two characters',
    'and more',
    '',
    '2',
    '00:00:04,500 --> 00:00:05,000',
    'Too short.',
    '',
    '3',
    '00:00:06,000 --> 00:00:14,000',
    'This cue runs for eight seconds. It should be split in two.',
    '',
    '4',
    '00:00:13,500 --> 00:00:16,000',
    'I start early.',
    '',
  );

// A WebVTT with a header, cue settings, identifiers without numbers, and NOTE blocks between the cues.
const VTT = [
  'WEBVTT - with settings and notes',
  '',
  'NOTE keep me',
  '',
  'intro',
  '00:01.000 --> 00:02.000 align:start position:10%',
  '<i>Short</i>',
  '',
  'NOTE and me',
  'over two lines',
  '',
  '00:00:05.000 --> 00:00:08.000 line:0',
  'Two lines that could',
  'be one.',
  '',
].join('\n');

const edit = (source: string, edits: ReturnType<typeof splitCue>): string => applyEdits(source, edits);

describe('layoutLines', () => {
  it('keeps what fits on one line, else balances the lines so the longest is as short as it can be', () => {
    assert.deepEqual(layoutLines(['Hello', 'there.'], 42, 2), ['Hello there.']);
    assert.deepEqual(layoutLines('one two three four five six seven eight nine ten eleven twelve'.split(' '), 42, 2), [
      'one two three four five six seven',
      'eight nine ten eleven twelve',
    ]);
    // Tags do not count toward the length.
    assert.deepEqual(layoutLines(['<i>aaaa', 'bbbb</i>'], 9, 2), ['<i>aaaa bbbb</i>']);
  });
});

describe('rebalanceCue', () => {
  it('rebreaks a line too long within the line length, keeping the BOM and CRLF', () => {
    const fixed = edit(SRT, rebalanceCue(SRT, 'srt', STYLE, 1));
    assert.ok(fixed.startsWith(BOM + '1\r\n00:00:01,000 --> 00:00:04,000\r\n'));
    assert.ok(
      fixed.includes('\r\nA line that is much, much longer\r\nthan forty-two characters and more\r\n\r\n2\r\n'),
      JSON.stringify(fixed),
    );
    assert.equal(fixed.replace(/\r\n/g, '').length, fixed.length - (fixed.match(/\r\n/g) ?? []).length * 2);
    assert.ok(!/[^\r]\n/.test(fixed), 'no bare LF');
    assert.deepEqual(
      checkSubtitles(fixed, 'srt', STYLE).filter((p) => p.cue === 1 && p.kind === 'line-too-long'),
      [],
    );
  });

  it('joins lines that fit on one, keeping VTT cue settings and notes', () => {
    const fixed = edit(VTT, rebalanceCue(VTT, 'vtt', STYLE, 2));
    assert.equal(fixed, VTT.replace('Two lines that could\nbe one.', 'Two lines that could be one.'));
  });

  it('does nothing when the words cannot fit the style, or for dialogue', () => {
    const long = crlf('1', '00:00:01,000 --> 00:00:09,000', 'word '.repeat(30).trim(), '');
    assert.deepEqual(rebalanceCue(long, 'srt', STYLE, 1), []);
    const dialogue = crlf('1', '00:00:01,000 --> 00:00:09,000', '- Hi.', '- Hello there, how are you?', '');
    assert.deepEqual(rebalanceCue(dialogue, 'srt', { ...STYLE, maxLineChars: 20 }, 1), []);
  });
});

describe('splitCue', () => {
  it('splits at the sentence end, times in proportion to the characters, and renumbers the SRT', () => {
    const fixed = edit(SRT, splitCue(SRT, 'srt', STYLE, 3));
    // 32 + 26 characters over 8 s: the break at 6 + 8 × 32/58 = 10.414 s, 40 ms either side for the gap.
    assert.equal(
      fixed,
      SRT.replace(
        crlf('3', '00:00:06,000 --> 00:00:14,000', 'This cue runs for eight seconds. It should be split in two.'),
        crlf(
          '3',
          '00:00:06,000 --> 00:00:10,374',
          'This cue runs for eight seconds.',
          '',
          '4',
          '00:00:10,454 --> 00:00:14,000',
          'It should be split in two.',
        ),
      ).replace('\r\n4\r\n00:00:13,500', '\r\n5\r\n00:00:13,500'),
    );
    assert.deepEqual(
      checkSubtitles(fixed, 'srt', STYLE).filter((p) => p.kind === 'too-long'),
      [],
    );
  });

  it('keeps the VTT cue settings on both halves and adds no identifier where there was none', () => {
    const fixed = edit(VTT, splitCue(VTT, 'vtt', STYLE, 2));
    assert.ok(
      fixed.endsWith(
        [
          '00:00:05.000 --> 00:00:06.516 line:0',
          'Two lines that',
          '',
          '00:00:06.596 --> 00:00:08.000 line:0',
          'could be one.',
          '',
        ].join('\n'),
      ),
      fixed,
    );
    assert.ok(
      fixed.includes('NOTE and me\nover two lines\n') &&
        fixed.startsWith('WEBVTT - with settings and notes\n\nNOTE keep me\n'),
    );
  });
});

describe('splitCueAt', () => {
  const SIMPLE =
    '1\n00:00:06,000 --> 00:00:14,000\nThis cue runs for eight seconds. It should be split in two.\n\n2\n00:00:15,000 --> 00:00:16,000\nNext.\n';

  it('ends the first half at the playhead, starts the second the minimum gap later, and divides the words by time', () => {
    // 9 s is 3/8 of the cue: "This cue runs for eight" is 23 of 59 characters (0.39), the nearest share.
    assert.equal(
      edit(SIMPLE, splitCueAt(SIMPLE, 'srt', STYLE, 1, 9)),
      [
        '1',
        '00:00:06,000 --> 00:00:09,000',
        'This cue runs for eight',
        '',
        '2',
        '00:00:09,080 --> 00:00:14,000',
        'seconds. It should be split in two.',
        '',
        '3',
        '00:00:15,000 --> 00:00:16,000',
        'Next.',
        '',
      ].join('\n'),
    );
  });

  it("keeps the file's CRLF and byte-order mark", () => {
    const fixed = edit(SRT, splitCueAt(SRT, 'srt', STYLE, 3, 10));
    assert.ok(fixed.startsWith(BOM) && !/[^\r]\n/.test(fixed), 'CRLF throughout');
    assert.match(fixed, /\r\n3\r\n00:00:06,000 --> 00:00:10,000\r\n.+\r\n\r\n4\r\n00:00:10,080 --> 00:00:14,000\r\n/);
  });

  it('refuses a time outside the cue and a cue of one word', () => {
    assert.throws(() => splitCueAt(SIMPLE, 'srt', STYLE, 1, 14), SubtitleEditError);
    assert.throws(() => splitCueAt(SIMPLE, 'srt', STYLE, 1, 5), SubtitleEditError);
    assert.throws(() => splitCueAt(SIMPLE, 'srt', STYLE, 2, 15.5), /fewer than two words/);
  });
});

describe('mergeWithNext', () => {
  it('joins two cues from the first start to the second end and renumbers the ones after', () => {
    const fixed = edit(SRT, mergeWithNext(SRT, 'srt', STYLE, 2));
    assert.equal(
      fixed,
      BOM +
        crlf(
          '1',
          '00:00:01,000 --> 00:00:04,000',
          'A line that is much, much longer than forty-two characters',
          'and more',
          '',
          '2',
          '00:00:04,500 --> 00:00:14,000',
          'Too short. This cue runs for eight',
          'seconds. It should be split in two.',
          '',
          '3',
          '00:00:13,500 --> 00:00:16,000',
          'I start early.',
          '',
        ),
    );
  });

  it('leaves a NOTE between the cues in place', () => {
    const fixed = edit(VTT, mergeWithNext(VTT, 'vtt', STYLE, 1));
    assert.equal(
      fixed,
      [
        'WEBVTT - with settings and notes',
        '',
        'NOTE keep me',
        '',
        'intro',
        '00:01.000 --> 00:08.000 align:start position:10%',
        '<i>Short</i> Two lines that could be one.',
        '',
        'NOTE and me',
        'over two lines',
        '',
      ].join('\n'),
    );
  });

  it('says so when there is no next cue', () => {
    assert.throws(() => mergeWithNext(SRT, 'srt', STYLE, 4), SubtitleEditError);
  });
});

describe('extendIntoGap and pullBackOverlap', () => {
  it('extends a too-short cue to the minimum duration when the gap allows', () => {
    const fixed = edit(SRT, extendIntoGap(SRT, 'srt', STYLE, 2));
    assert.equal(fixed, SRT.replace('00:00:04,500 --> 00:00:05,000', '00:00:04,500 --> 00:00:05,330'));
  });

  it('stops the minimum gap before the next cue', () => {
    const fixed = edit(VTT, extendIntoGap(VTT, 'vtt', { ...STYLE, minDurationSeconds: 5 }, 1));
    assert.ok(fixed.includes('\n00:01.000 --> 00:04.920 align:start position:10%\n'), fixed);
    assert.deepEqual(extendIntoGap(SRT, 'srt', STYLE, 1), [], 'a cue long enough stays');
  });

  it('ends the earlier cue the minimum gap before an overlapping one starts', () => {
    const fixed = edit(SRT, pullBackOverlap(SRT, 'srt', STYLE, 4));
    assert.equal(fixed, SRT.replace('00:00:06,000 --> 00:00:14,000', '00:00:06,000 --> 00:00:13,420'));
    assert.deepEqual(
      checkSubtitles(fixed, 'srt', STYLE).filter((p) => p.kind === 'overlap'),
      [],
    );
  });
});

describe('shiftTiming', () => {
  it('moves every cue, keeping how each timestamp was written', () => {
    const fixed = edit(VTT, shiftTiming(VTT, 'vtt', 1.5));
    assert.equal(
      fixed,
      VTT.replace('00:01.000 --> 00:02.000', '00:02.500 --> 00:03.500').replace(
        '00:00:05.000 --> 00:00:08.000',
        '00:00:06.500 --> 00:00:09.500',
      ),
    );
  });

  it('moves the cues from one on, back in time, past an hour', () => {
    const fixed = edit(SRT, shiftTiming(SRT, 'srt', -0.25, 3));
    assert.equal(
      fixed,
      SRT.replace('00:00:06,000 --> 00:00:14,000', '00:00:05,750 --> 00:00:13,750').replace(
        '00:00:13,500 --> 00:00:16,000',
        '00:00:13,250 --> 00:00:15,750',
      ),
    );
    assert.ok(edit(VTT, shiftTiming(VTT, 'vtt', 3600)).includes('\n01:00:01.000 --> 01:00:02.000 align:start'));
  });

  it('refuses a shift that would start a cue before 0:00', () => {
    assert.throws(() => shiftTiming(SRT, 'srt', -2), /cue 1 would start before 0:00/);
  });
});

describe('cueAtLine', () => {
  it('finds the cue of a line: its number, timing or text', () => {
    assert.deepEqual(
      [1, 2, 3, 5, 6, 7, 8].map((line) => cueAtLine(SRT, 'srt', line)),
      [1, 1, 1, 1, 2, 2, 2],
    );
    assert.equal(cueAtLine(VTT, 'vtt', 3), undefined);
    assert.equal(cueAtLine(VTT, 'vtt', 5), 1);
  });
});
