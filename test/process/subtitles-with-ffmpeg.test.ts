// Subtitle files and ffmpeg, in both directions: what our writers produce, ffmpeg reads cue for cue at its time;
// what ffmpeg writes, our reader reads and rewrites byte for byte. Here, not in test/unit, because each test runs
// ffmpeg or ffprobe as a child process (test/unit stays pure).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseSubtitles } from '../../src/subtitles/parse';
import { scanSubtitles } from '../../src/subtitles/scan';
import { rewriteEveryCue } from '../../src/subtitles/span-edits';
import { renderSubtitleFile } from '../../src/subtitles/subtitle-file';
import { WRITER_CUES, WRITER_TRANSCRIPT } from '../helpers/writer-transcript';

const TRANSCRIPT = WRITER_TRANSCRIPT;
const cues = WRITER_CUES;
const dir = mkdtempSync(path.join(tmpdir(), 'subtitles-ffmpeg-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The cues ffprobe reads from a file: start and duration of each packet, in seconds. */
function ffprobePackets(file: string): Array<{ start: number; end: number }> {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', file],
    { encoding: 'utf8' },
  );
  return out
    .trim()
    .split('\n')
    .map((line) => line.split(',').map(Number))
    .map(([start, duration]) => ({ start: start, end: start + duration }));
}

describe('subtitle files our writers make, read by ffmpeg', () => {
  for (const format of ['ass', 'sbv'] as const) {
    it(`${format}: ffmpeg reads every cue at its time`, () => {
      const file = path.join(dir, `written.${format}`);
      writeFileSync(file, renderSubtitleFile(TRANSCRIPT, format));
      // Decoded and written again as SubRip: ffmpeg stops at anything it cannot read (-xerror).
      const asSrt = execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'srt', '-'], {
        encoding: 'utf8',
      });
      assert.equal(asSrt.match(/-->/g)?.length, cues.length);
      assert.match(asSrt, /Past the first hour\./);
      const packets = ffprobePackets(file);
      assert.equal(packets.length, cues.length);
      packets.forEach((packet, i) => {
        assert.ok(
          Math.abs(packet.start - cues[i].start) <= 0.0051,
          `cue ${i + 1} start ${packet.start} vs ${cues[i].start}`,
        );
        assert.ok(Math.abs(packet.end - cues[i].end) <= 0.0101, `cue ${i + 1} end ${packet.end} vs ${cues[i].end}`);
      });
    });
  }
});

describe('subtitle files ffmpeg writes, read by ours', () => {
  it('files ffmpeg writes as .ass and .ttml round-trip too', () => {
    const srt = path.join(dir, 'from.srt');
    writeFileSync(
      srt,
      [
        '1',
        '00:00:01,250 --> 00:00:03,500',
        '<i>Hello</i> there,',
        'friend.',
        '',
        '2',
        '00:01:02,000 --> 00:01:04,125',
        'Second & last.',
        '',
      ].join('\n'),
      'utf8',
    );
    for (const [extension, format] of [
      ['ass', 'ass'],
      ['ttml', 'ttml'],
    ] as const) {
      const out = path.join(dir, `ffmpeg.${extension}`);
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', srt, out]);
      const source = readFileSync(out, 'utf8');
      const { cues: read, errors, timeBase } = scanSubtitles(source, format);
      assert.deepEqual(errors, [], source);
      assert.deepEqual(
        read.map((cue) => [cue.start, cue.end]),
        [
          [1.25, 3.5],
          [62, 64.125],
        ].map(([s, e]) => (format === 'ass' ? [Math.round(s * 100) / 100, Math.round(e * 100) / 100] : [s, e])),
      );
      assert.equal(rewriteEveryCue({ source, format, timeBase }, read), source);
      assert.match(parseSubtitles(source, format)[0].text, /^Hello there, friend\.$/);
    }
  });
});
