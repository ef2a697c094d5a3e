import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from '../../src/subtitles/edits';
import { scanSubtitles } from '../../src/subtitles/scan';
import { snapToSpeech, type SpeechSpan } from '../../src/subtitles/snap';
import { DEFAULT_SUBTITLE_STYLE as STYLE } from '../../src/contract/subtitle-style';

const BOM = '\uFEFF';
const crlf = (...lines: string[]): string => lines.join('\r\n');

/** What Silero VAD finds in jfk.wav (the engine test measures the real thing). */
const JFK: SpeechSpan[] = [
  { start: 0.32, end: 2.27 },
  { start: 3.27, end: 4.41 },
  { start: 5.38, end: 7.68 },
  { start: 8.16, end: 10.62 },
];

// The jfk cues, each shifted about 0.3 s late, written as Windows tools write SRT: BOM and CRLF.
const SHIFTED_SRT =
  BOM +
  crlf(
    '1',
    '00:00:00,620 --> 00:00:02,570',
    'And so, my fellow Americans,',
    '',
    '2',
    '00:00:03,570 --> 00:00:04,710',
    'ask not',
    '',
    '3',
    '00:00:05,680 --> 00:00:07,980',
    'what your country can do for you,',
    '',
    '4',
    '00:00:08,460 --> 00:00:10,920',
    'ask what you can do for your country.',
    '',
  );

const times = (source: string, format: 'srt' | 'vtt'): Array<[number, number]> =>
  scanSubtitles(source, format).cues.map((cue) => [cue.start, cue.end]);

describe('snapToSpeech', () => {
  it('moves each shifted cue back onto the speech it belongs to, keeping the BOM, CRLF and the text', () => {
    const { edits, report } = snapToSpeech(SHIFTED_SRT, 'srt', JFK, STYLE);
    const snapped = applyEdits(SHIFTED_SRT, edits);
    assert.deepEqual(
      times(snapped, 'srt'),
      JFK.map((span) => [span.start, span.end]),
    );
    assert.ok(snapped.startsWith(BOM));
    assert.equal(snapped.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF was written');
    assert.equal(
      snapped.replace(/\d\d:\d\d:\d\d,\d{3}/g, 'T'),
      SHIFTED_SRT.replace(/\d\d:\d\d:\d\d,\d{3}/g, 'T'),
      'only timestamps changed',
    );
    assert.deepEqual(report, { moved: 4, total: 4, meanShiftMs: 300, maxShiftMs: 300, heldBack: 0 });
  });

  it('keeps WebVTT cue settings, identifiers, the header and NOTE blocks, and the way stamps were written', () => {
    const vtt = [
      'WEBVTT - a header',
      '',
      'NOTE 00:00:09.000 --> 00:00:10.000 is not a cue',
      '',
      'intro',
      '00:00.600 --> 00:02.500 align:start line:90%',
      'And so,',
      '',
      '00:00:03.100 --> 00:00:04.600 position:10%',
      'ask not',
      '',
    ].join('\n');
    const snapped = applyEdits(vtt, snapToSpeech(vtt, 'vtt', JFK, STYLE).edits);
    assert.equal(
      snapped,
      vtt
        .replace('00:00.600 --> 00:02.500 align:start', '00:00.320 --> 00:02.270 align:start')
        .replace('00:00:03.100 --> 00:00:04.600 position', '00:00:03.270 --> 00:00:04.410 position'),
    );
  });

  it('leaves a boundary alone when no speech edge is within the window, and honours a wider window', () => {
    const srt = ['1', '00:00:01,000 --> 00:00:02,000', 'Far from the edges', ''].join('\n');
    const narrow = snapToSpeech(srt, 'srt', JFK, STYLE, 0.5);
    assert.deepEqual(narrow.report, { moved: 1, total: 1, meanShiftMs: 270, maxShiftMs: 270, heldBack: 0 });
    assert.deepEqual(
      times(applyEdits(srt, narrow.edits), 'srt'),
      [[1, 2.27]],
      'the start is 0.68 s from any onset: it stays',
    );
    const wide = snapToSpeech(srt, 'srt', JFK, STYLE, 0.7);
    assert.deepEqual(times(applyEdits(srt, wide.edits), 'srt'), [[0.32, 2.27]]);
    assert.deepEqual(snapToSpeech(srt, 'srt', JFK, STYLE, 0).report, {
      moved: 0,
      total: 1,
      meanShiftMs: 0,
      maxShiftMs: 0,
      heldBack: 0,
    });
  });

  it('never makes two cues overlap or come closer than the minimum gap', () => {
    // Two cues that split one stretch of speech: cue 1's end would snap past cue 2's start.
    const srt = [
      '1',
      '00:00:05,400 --> 00:00:07,300',
      'what your country',
      '',
      '2',
      '00:00:07,400 --> 00:00:08,000',
      'can do',
      '',
    ].join('\n');
    const snapped = times(applyEdits(srt, snapToSpeech(srt, 'srt', JFK, STYLE).edits), 'srt');
    assert.deepEqual(snapped[0], [5.38, 7.3], 'cue 1 keeps its end: 7.68 is inside cue 2');
    // Cue 2's start has no onset in reach; its end could go to 7.68, which would leave it 0.28 s.
    assert.deepEqual(snapped[1], [7.4, 8]);
  });

  it("never makes a cue shorter than the style's minimum duration", () => {
    // The nearest onset is 4.2 and offset 4.41: both would leave 0.21 s, the start alone 0.7 s, the end alone
    // 0.51 s, all under 0.83 s, so the cue stays; with room for the end alone, only the end moves.
    const srt = ['1', '00:00:03,900 --> 00:00:04,900', 'ask not', ''].join('\n');
    const speech = [
      { start: 3.4, end: 4.41 },
      { start: 4.2, end: 6 },
    ];
    assert.deepEqual(snapToSpeech(srt, 'srt', speech, STYLE).edits, []);
    // [3.5, 4.9] with speech 3.95–4.41: both ends would leave 0.46 s, the start alone 0.95 s: only the start moves.
    const roomy = ['1', '00:00:03,500 --> 00:00:04,900', 'ask not', ''].join('\n');
    const moved = snapToSpeech(roomy, 'srt', [{ start: 3.95, end: 4.41 }], STYLE);
    assert.deepEqual(times(applyEdits(roomy, moved.edits), 'srt'), [[3.95, 4.9]]);
    assert.deepEqual(moved.report, { moved: 1, total: 1, meanShiftMs: 450, maxShiftMs: 450, heldBack: 1 });
  });

  it('never makes a cue read faster than the style allows, and counts the move it held back', () => {
    // 17 characters in 1.2 s read at 14.2 per second; the speech offset at 4.6 would leave 0.9 s: 18.9, too fast.
    const srt = ['1', '00:00:03,700 --> 00:00:04,900', 'ask not what your', ''].join('\n');
    const { edits, report } = snapToSpeech(srt, 'srt', [{ start: 3, end: 4.6 }], STYLE);
    assert.deepEqual(edits, [], 'the onset is out of reach and the offset would make it too fast');
    assert.deepEqual(report, { moved: 0, total: 1, meanShiftMs: 0, maxShiftMs: 0, heldBack: 1 });
  });

  it('does not shorten further a cue that was already under the minimum, nor touch cues it cannot read', () => {
    const srt = [
      '1',
      '00:00:03,300 --> 00:00:03,600',
      'ask',
      '',
      '2',
      '00:00:09,000 --> 00:00:08,000',
      'backwards',
      '',
    ].join('\n');
    const { edits, report } = snapToSpeech(srt, 'srt', [{ start: 3.27, end: 3.5 }], STYLE);
    assert.deepEqual(times(applyEdits(srt, edits), 'srt'), [
      [3.27, 3.6],
      [9, 8],
    ]);
    assert.equal(report.total, 2);
  });

  it('changes nothing without speech, and refuses a window that is not a length', () => {
    assert.deepEqual(snapToSpeech(SHIFTED_SRT, 'srt', [], STYLE).edits, []);
    assert.throws(() => snapToSpeech(SHIFTED_SRT, 'srt', JFK, STYLE, -1), /window/);
    assert.throws(() => snapToSpeech(SHIFTED_SRT, 'srt', JFK, STYLE, Number.NaN), /window/);
  });
});
