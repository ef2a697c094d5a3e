// The cue grid's rules: its rows (reading speed and the checker's problems per cue), the messages its page
// may send, the edits a cell makes (byte-preserving, refused with a sentence when they cannot be made), and
// the page's own rules (the cue shown at a time, times as cells show them) from media/cue-grid/grid-logic.js.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { checkSubtitles } from '../../src/subtitles/check';
import { applyEdits } from '../../src/subtitles/edits';
import { DEFAULT_SUBTITLE_STYLE as STYLE } from '../../src/contract/subtitle-style';
import {
  cueAtTime,
  editsForCell,
  gridRows,
  parseGridMessage,
  parseGridTime,
} from '../../src/editor/subtitles/cue-grid-protocol';

const page = createRequire(path.join(process.cwd(), 'package.json'))('./media/cue-grid/grid-logic.js') as {
  cueAt(cues: { index: number; start: number; end: number }[], seconds: number): number | null;
  clock(seconds: number): string;
  shownText(text: string): string;
};

const SRT =
  '\uFEFF' +
  [
    '1',
    '00:00:01,000 --> 00:00:03,000',
    'Hello there.',
    '',
    '2',
    '00:00:03,500 --> 00:00:04,000',
    'This one is far too fast to read,',
    'really.',
    '',
    '3',
    '00:00:03,800 --> 00:00:06,000',
    '<i>Overlapping</i>',
    '',
  ].join('\r\n');

describe('gridRows', () => {
  it("gives each cue its timing, duration, reading speed and the checker's problems on its lines", () => {
    const problems = checkSubtitles(SRT, 'srt', STYLE).map((p) => ({ line: p.line, message: p.message }));
    const rows = gridRows(SRT, 'srt', problems);
    assert.deepEqual(
      rows.map((r) => [r.index, r.start, r.end, r.duration, r.charsPerSecond, r.text]),
      [
        [1, 1, 3, 2, 6, 'Hello there.'],
        [2, 3.5, 4, 0.5, 80, 'This one is far too fast to read,\nreally.'],
        [3, 3.8, 6, 2.2, 5, '<i>Overlapping</i>'],
      ],
    );
    assert.deepEqual(rows[0].problems, []);
    assert.ok(
      rows[1].problems.some((p) => /reads at 80\.0 characters per second/.test(p)),
      rows[1].problems.join('; '),
    );
    assert.ok(
      rows[2].problems.some((p) => /starts 0\.2 s before cue 2 ends/.test(p)),
      rows[2].problems.join('; '),
    );
    // Every problem of the checker lands on exactly one row.
    assert.equal(rows.flatMap((r) => r.problems).length, problems.length);
  });
});

describe('editsForCell', () => {
  it('rewrites only the start stamp, keeping the BOM, CRLF and the SRT comma', () => {
    const edits = editsForCell(SRT, 'srt', { index: 3, field: 'start', value: '4.1' });
    assert.ok(Array.isArray(edits));
    assert.equal(applyEdits(SRT, edits), SRT.replace('00:00:03,800 --> 00:00:06,000', '00:00:04,100 --> 00:00:06,000'));
  });

  it("replaces the text lines with the file's line break", () => {
    const edits = editsForCell(SRT, 'srt', { index: 2, field: 'text', value: 'Slower.\nMuch.' });
    assert.ok(Array.isArray(edits));
    assert.equal(
      applyEdits(SRT, edits),
      SRT.replace('This one is far too fast to read,\r\nreally.', 'Slower.\r\nMuch.'),
    );
  });

  it('makes no edit for an unchanged cell', () => {
    assert.deepEqual(editsForCell(SRT, 'srt', { index: 1, field: 'text', value: 'Hello there.' }), []);
  });

  it('refuses, with a sentence, what would break the file', () => {
    assert.match(editsForCell(SRT, 'srt', { index: 1, field: 'end', value: 'soon' }) as string, /"soon" is not a time/);
    assert.match(
      editsForCell(SRT, 'srt', { index: 1, field: 'end', value: '00:00:00,500' }) as string,
      /would end .* before it starts/,
    );
    assert.match(editsForCell(SRT, 'srt', { index: 1, field: 'text', value: '  \n' }) as string, /needs some text/);
    assert.match(editsForCell(SRT, 'srt', { index: 1, field: 'text', value: 'One\n\nTwo' }) as string, /empty line/);
    assert.match(editsForCell(SRT, 'srt', { index: 9, field: 'text', value: 'x' }) as string, /no cue 9/);
  });

  it('edits a WebVTT and an ASS file the same way', () => {
    const vtt = 'WEBVTT\n\n00:01.000 --> 00:02.000 align:start\nHi\n';
    assert.equal(
      applyEdits(vtt, editsForCell(vtt, 'vtt', { index: 1, field: 'end', value: '00:02.500' }) as []),
      'WEBVTT\n\n00:01.000 --> 00:02.500 align:start\nHi\n',
    );
    const ass =
      '[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hi\n';
    assert.equal(
      applyEdits(ass, editsForCell(ass, 'ass', { index: 1, field: 'text', value: 'Hello' }) as []),
      ass.replace(',,Hi', ',,Hello'),
    );
  });
});

describe('parseGridTime', () => {
  it('reads the ways a person writes a time', () => {
    assert.equal(parseGridTime('1:02:03.450'), 3723.45);
    assert.equal(parseGridTime('02:03,450'), 123.45);
    assert.equal(parseGridTime('0:01.5'), 1.5);
    assert.equal(parseGridTime('3.45'), 3.45);
    assert.equal(parseGridTime('75'), 75);
    for (const bad of ['', 'x', '1:75.000', '1.2.3', '-1']) assert.equal(parseGridTime(bad), undefined, bad);
  });
});

describe('parseGridMessage', () => {
  it("accepts the page's messages and drops anything else", () => {
    assert.deepEqual(parseGridMessage({ type: 'edit', index: 2, field: 'text', value: 'x' }), {
      type: 'edit',
      index: 2,
      field: 'text',
      value: 'x',
    });
    assert.deepEqual(parseGridMessage({ type: 'shown', time: 1.5, cue: null, text: '', request: 3 }), {
      type: 'shown',
      time: 1.5,
      cue: null,
      text: '',
      request: 3,
    });
    assert.deepEqual(parseGridMessage({ type: 'select', index: 1 }), { type: 'select', index: 1 });
    for (const bad of [
      null,
      'edit',
      {},
      { type: 'edit', index: 0, field: 'text', value: 'x' },
      { type: 'edit', index: 1, field: 'style', value: 'x' },
      { type: 'select', index: 1.5 },
      { type: 'shown', time: -1, cue: 1, text: '' },
      { type: 'shown', time: Infinity, cue: 1, text: '' },
      { type: 'eval' },
    ]) {
      assert.equal(parseGridMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});

describe("the page's rules", () => {
  const cues = [
    { index: 1, start: 1, end: 3 },
    { index: 2, start: 3.5, end: 4 },
    { index: 3, start: 3.8, end: 6 },
  ];

  it('shows the cue that has begun and not ended, the later one where two overlap, none between cues', () => {
    for (const [seconds, cue] of [
      [0.5, null],
      [1, 1],
      [2.999, 1],
      [3, null],
      [3.6, 2],
      [3.9, 3],
      [4, 3],
      [6, null],
    ] as const) {
      assert.equal(page.cueAt(cues, seconds), cue, `at ${seconds} s`);
      assert.equal(cueAtTime(cues, seconds), cue, `the extension agrees at ${seconds} s`);
    }
  });

  it('writes cell times as M:SS.mmm (hours when there are some) and draws text without markup', () => {
    assert.equal(page.clock(3.8), '0:03.800');
    assert.equal(page.clock(3723.45), '1:02:03.450');
    assert.equal(parseGridTime(page.clock(3723.45)), 3723.45, 'what a cell shows reads back');
    assert.equal(page.shownText('<i>Hi</i> {\\an8}there\\Nyou'), 'Hi there\nyou');
  });
});
