import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { checkSubtitles, displayText } from '../../src/subtitles/check';
import {
  DEFAULT_SUBTITLE_STYLE,
  resolveStyle,
  STYLE_PRESETS,
  STYLE_RANGES,
  StyleError,
} from '../../src/contract/subtitle-style';
import { cueLimitsOf, layoutCues } from '../../src/subtitles/cues';
import { renderTranscript, type Transcript } from '../../src/subtitles/render';

const fixture = (name: string): string =>
  readFileSync(path.join(__dirname, '..', 'fixtures', 'subtitles', name), 'utf8');
const brief = (problems: ReturnType<typeof checkSubtitles>) => problems.map(({ kind, cue, line }) => [line, cue, kind]);

describe('resolveStyle', () => {
  it('gives the default style: 42 characters, 2 lines, 17 cps, 0.83–7 s, 2 frames at 25 fps, 12 frames around a shot change', () => {
    assert.deepEqual(resolveStyle(), {
      maxLineChars: 42,
      maxLines: 2,
      maxCharsPerSecond: 17,
      minDurationSeconds: 0.83,
      maxDurationSeconds: 7,
      minGapSeconds: 0.08,
      shotChangeThreshold: 0.4,
      shotChangeFrames: 12,
    });
  });

  it('takes a preset and replaces some of its values', () => {
    assert.deepEqual(resolveStyle('bbc', { maxLines: 1 }), { ...STYLE_PRESETS.bbc.style, maxLines: 1 });
    assert.equal(resolveStyle('netflix-en').maxCharsPerSecond, 20);
    for (const preset of Object.values(STYLE_PRESETS)) assert.ok(preset.source.length > 0 && preset.label.length > 0);
  });

  it("is offered in the editor's settings with the same presets and ranges", () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const settings = pkg.contributes.configuration.properties;
    assert.deepEqual(settings['speechStudio.subtitles.style'].enum, Object.keys(STYLE_PRESETS));
    const limits = settings['speechStudio.subtitles.limits'].properties;
    for (const [field, range] of Object.entries(STYLE_RANGES)) {
      assert.deepEqual(
        [limits[field].type, limits[field].minimum, limits[field].maximum],
        [range.integer ? 'integer' : 'number', range.min, range.max],
        field,
      );
    }
  });

  it('names the field that is out of range, or the unknown preset', () => {
    const field = (fn: () => unknown): string => {
      try {
        fn();
      } catch (error) {
        assert.ok(error instanceof StyleError);
        return `${error.field}|${error.message}`;
      }
      throw new Error('expected a StyleError');
    };
    assert.equal(
      field(() => resolveStyle('default', { maxLineChars: 5 })),
      'maxLineChars|maxLineChars: must be an integer from 10 to 200',
    );
    assert.equal(
      field(() => resolveStyle('default', { maxLines: 1.5 })),
      'maxLines|maxLines: must be an integer from 1 to 5',
    );
    assert.match(
      field(() => resolveStyle('default', { minDurationSeconds: 8 })),
      /^minDurationSeconds\|/,
    );
    assert.match(
      field(() => resolveStyle('default', { maxDurationSeconds: 0.6 })),
      /^maxDurationSeconds\|/,
    );
    assert.match(
      field(() => resolveStyle('toString')),
      /^style\|style: must be one of default, netflix-en/,
    );
  });
});

describe('checkSubtitles', () => {
  it('finds every kind of problem in an SRT with a BOM and CRLF line ends, each on its cue and line', () => {
    const source = fixture('problems-crlf-bom.srt');
    assert.ok(source.startsWith('\uFEFF') && source.includes('\r\n'), 'the fixture keeps its BOM and CRLF');
    assert.deepEqual(brief(checkSubtitles(source, 'srt', DEFAULT_SUBTITLE_STYLE)), [
      [6, 2, 'too-short'],
      [6, 2, 'reading-speed'],
      [6, 2, 'gap-too-small'],
      [10, 3, 'reading-speed'],
      [10, 3, 'overlap'],
      [11, 3, 'line-too-long'],
      [14, 4, 'too-long'],
      [15, 4, 'line-too-long'],
      [17, 4, 'too-many-lines'],
      [20, 5, 'out-of-order'],
      [24, 0, 'parse'],
      [28, 6, 'parse'],
    ]);
  });

  it('compares the reading speed as it shows it: 17.04 characters per second is 17.0, not faster than 17', () => {
    // 35 characters in 2.054 s is 17.04 per second, shown as 17.0; 36 characters in 2 s is 18.0.
    const srt = (text: string, end: string) => `1\n00:00:01,000 --> ${end}\n${text}\n`;
    const speedProblems = (source: string) =>
      checkSubtitles(source, 'srt', DEFAULT_SUBTITLE_STYLE).filter((p) => p.kind === 'reading-speed');
    assert.deepEqual(speedProblems(srt('a'.repeat(16) + ' ' + 'b'.repeat(18), '00:00:03,054')), []);
    assert.equal(
      speedProblems(srt('a'.repeat(17) + ' ' + 'b'.repeat(18), '00:00:03,000'))[0]?.message,
      'cue 1 reads at 18.0 characters per second, faster than 17',
    );
  });

  it('says what is wrong in words a subtitler can act on', () => {
    const problems = checkSubtitles(fixture('problems-crlf-bom.srt'), 'srt', DEFAULT_SUBTITLE_STYLE);
    const message = (line: number, kind: string) => problems.find((p) => p.line === line && p.kind === kind)?.message;
    assert.equal(message(6, 'too-short'), 'cue 2 lasts 0.48 s, less than the minimum of 0.83 s');
    assert.equal(message(6, 'reading-speed'), 'cue 2 reads at 50.0 characters per second, faster than 17');
    assert.equal(
      message(6, 'gap-too-small'),
      'cue 2 starts 0.02 s after cue 1 ends, less than the minimum gap of 0.08 s',
    );
    assert.equal(message(10, 'overlap'), 'cue 3 starts 0.1 s before cue 2 ends');
    assert.equal(message(15, 'line-too-long'), 'line 1 of cue 4 has 58 characters, more than 42');
    assert.equal(message(24, 'parse'), 'line 24: cannot read the cue timing "00:00:20,000 --> 00:0x:21,000"');
    assert.equal(message(28, 'parse'), 'line 28: the cue has no duration: it starts and ends at the same time');
  });

  it('passes a clean WebVTT file with a title, STYLE, REGION and NOTE blocks, identifiers, settings and tags', () => {
    assert.deepEqual(checkSubtitles(fixture('clean-settings-notes.vtt'), 'vtt', DEFAULT_SUBTITLE_STYLE), []);
  });

  it('counts shown characters only, so the same file breaks a narrower preset on the right line', () => {
    assert.deepEqual(brief(checkSubtitles(fixture('clean-settings-notes.vtt'), 'vtt', resolveStyle('bbc'))), [
      [17, 2, 'line-too-long'],
    ]);
    assert.equal(displayText('{\\an8}<c.yellow>Top</c> &lt;3 &#x41;<00:00:01.000>'), 'Top <3 A');
  });

  it('reports a WebVTT file without its header and reads on', () => {
    const problems = checkSubtitles('00:00:01.000 --> 00:00:02.000\nHi there\n', 'vtt', DEFAULT_SUBTITLE_STYLE);
    assert.deepEqual(brief(problems), [[1, 1, 'parse']]);
    assert.equal(problems[0]?.message, 'line 1: a WebVTT file must start with "WEBVTT"');
  });

  it('reports a cue without text', () => {
    assert.deepEqual(
      brief(checkSubtitles('1\n00:00:01,000 --> 00:00:03,000\n<i></i>\n', 'srt', DEFAULT_SUBTITLE_STYLE)),
      [[2, 1, 'empty']],
    );
  });

  it('checks 2 000 clean cues and finds no problem (its speed is in npm run bench -- subtitles)', () => {
    const source = Array.from(
      { length: 2000 },
      (_, i) => `${i + 1}\n${stamp(i * 3)} --> ${stamp(i * 3 + 2)}\nCue number ${i + 1}, a line.\n`,
    ).join('\n');
    assert.deepEqual(checkSubtitles(source, 'srt', DEFAULT_SUBTITLE_STYLE), []);
  });
});

describe('cue layout with a style', () => {
  const options = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' } as const;
  const transcriptOf = (words: Array<[string, number, number]>): Transcript => ({
    text: words.map(([text]) => text).join(' '),
    language: 'en',
    durationSeconds: 600,
    segments: [
      {
        start: words[0][1],
        end: words[words.length - 1][2],
        text: words.map(([text]) => text).join(' '),
        words: words.map(([text, start, end]) => ({ text, start, end, probability: null })),
      },
    ],
    speakers: null,
    options,
    backend: 'whisper.cpp',
    model: 'ggml-base.bin',
  });

  it('keeps a cue up until it can be read, and ends it the minimum gap before the next', () => {
    // "Quickly said words here" (23 characters) spoken in 0.5 s, then a pause, then more words at 5 s.
    const transcript = transcriptOf([
      ['Quickly', 0, 0.1],
      ['said', 0.1, 0.2],
      ['words', 0.2, 0.35],
      ['here.', 0.35, 0.5],
      ['Later', 1.2, 1.6],
      ['on.', 1.6, 2],
    ]);
    const { cues } = layoutCues(
      transcript.segments,
      cueLimitsOf({ ...DEFAULT_SUBTITLE_STYLE, maxLineChars: 24, maxLines: 1 }),
    );
    // The first needs 24 / 17 = 1.41 s to be read, but the next starts at 1.2 s: it ends 0.08 s before. The
    // second lasts 0.8 s and is lengthened to the minimum of 0.83 s.
    assert.deepEqual(
      cues.map((c) => [c.start, c.end, c.lines.join('|')]),
      [
        [0, 1.12, 'Quickly said words here.'],
        [1.2, 2.03, 'Later on.'],
      ],
    );
  });

  it('lays out the words of a transcript so that the check finds nothing, under every preset', () => {
    const words: Array<[string, number, number]> = [];
    let at = 0;
    for (let i = 0; i < 300; i++) {
      const text = ['word', 'subtitle', 'a', 'reasonably', 'long', 'sentence.'][i % 6];
      words.push([text, at, at + 0.45]);
      at += i % 6 === 5 ? 1.5 : 0.5;
    }
    for (const name of Object.keys(STYLE_PRESETS)) {
      const style = resolveStyle(name);
      for (const format of ['srt', 'vtt'] as const) {
        const { body } = renderTranscript(transcriptOf(words), format, style);
        assert.deepEqual(checkSubtitles(body, format, style), [], `${name} ${format}`);
      }
    }
  });

  it('keeps a word longer than a line whole on its own line, and reports its cue', () => {
    const url = 'https://example.com/a/very/long/address/that/never/ends';
    const rendered = renderTranscript(
      transcriptOf([
        ['Visit', 0, 0.5],
        [url, 0.5, 3],
        ['today.', 3, 3.5],
      ]),
      'srt',
    );
    assert.deepEqual(rendered.longWordCues, [2]);
    assert.match(rendered.body, new RegExp(`\\n${url.replace(/[/.]/g, '\\$&')}\\n`));
  });
});

function stamp(seconds: number): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)},000`;
}
