/**
 * `cli.js audiobook --per-chapter --master acx`: each chapter is mastered to Audible's rules and the report the
 * command prints is what ffprobe and ffmpeg measure in the files; an M4B joins the same mastered chapters and
 * comes with the chapter MP3s ACX takes; a single MP3 book is refused before any synthesis.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { useWorkDirs } from '../helpers/temp';

const workDir = useWorkDirs();

const BOOK = `# The Harbour

The boats came in at dawn, heavy with the night's catch, and the gulls followed them all the way.

# The Market

By noon the market was loud with voices, and the fish were gone before the bells rang one.
`;

function rmsDb(file: string): number {
  const run = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-i',
      file,
      '-af',
      'astats=measure_overall=RMS_level:measure_perchannel=none',
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8' },
  );
  const match = /RMS level dB: (-?[\d.]+)/.exec(run.stderr);
  assert.ok(match, run.stderr);
  return Number(match[1]);
}

describe('audiobook --master acx', () => {
  it("writes one 44.1 kHz 192 kbps MP3 per chapter and prints each file's compliance as ffmpeg measures it", async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), BOOK);
    const out = path.join(dir, 'acx');
    const run = await runCli([
      'audiobook',
      path.join(dir, 'book.md'),
      '--out',
      out,
      '--per-chapter',
      '--master',
      'acx',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const files = (await readdir(out)).sort();
    assert.deepEqual(files, ['01 The Harbour.mp3', '02 The Market.mp3']);
    const lines = run.stdout.split('\n').filter((line) => line.startsWith('ACX '));
    assert.equal(lines.length, 2, run.stdout);
    for (const [index, file] of files.entries()) {
      const probed = JSON.parse(
        execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path.join(out, file)], {
          encoding: 'utf8',
        }),
      ).streams[0];
      assert.equal(probed.codec_name, 'mp3');
      assert.equal(Number(probed.sample_rate), 44_100);
      assert.equal(Number(probed.bit_rate), 192_000);
      const line = lines[index];
      assert.match(
        line,
        new RegExp(
          `^ACX complies: ${file.replace(/[.]/g, '\\.')}: RMS -\\d+\\.\\d dB, true peak -\\d+\\.\\d dB, noise floor`,
        ),
      );
      const reported = Number(/RMS (-[\d.]+) dB/.exec(line)![1]);
      assert.ok(
        Math.abs(reported - rmsDb(path.join(out, file))) <= 0.06,
        `${line} against ${rmsDb(path.join(out, file))}`,
      );
    }
  });

  it('an M4B: the same mastered chapters joined with chapter marks, beside the folder of chapter MP3s ACX takes', async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), BOOK);
    const book = path.join(dir, 'book.m4b');
    const run = await runCli([
      'audiobook',
      path.join(dir, 'book.md'),
      '--out',
      book,
      '--master',
      'acx',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const folder = path.join(dir, 'book-acx');
    assert.match(
      run.stdout,
      new RegExp(
        `ACX takes one MP3 per chapter, not the M4B: the mastered chapters are in ${folder.replace(/[.]/g, '\\.')}`,
      ),
    );
    const mp3s = (await readdir(folder)).sort();
    assert.deepEqual(mp3s, ['01 The Harbour.mp3', '02 The Market.mp3']);
    const lines = run.stdout.split('\n').filter((line) => line.startsWith('ACX complies: '));
    assert.deepEqual(
      lines.map((line) => line.split(': ')[1]),
      mp3s,
      'the report is per chapter MP3',
    );
    const probe = (file: string, what: string) =>
      JSON.parse(
        execFileSync('ffprobe', ['-v', 'error', what, '-show_format', '-of', 'json', file], { encoding: 'utf8' }),
      );
    const chapters = probe(book, '-show_chapters').chapters as {
      start_time: string;
      end_time: string;
      tags: { title: string };
    }[];
    assert.deepEqual(
      chapters.map((chapter) => chapter.tags.title),
      ['The Harbour', 'The Market'],
    );
    const firstMp3 = Number(probe(path.join(folder, mp3s[0]), '-show_streams').format.duration);
    assert.ok(
      Math.abs(Number(chapters[1].start_time) - firstMp3) < 0.1,
      `the second chapter starts where the first mastered chapter ends (${chapters[1].start_time} vs ${firstMp3} s)`,
    );
    // The M4B carries the mastered sound: the MP3's level, and room tone at the head (0.75 s), not speech.
    const bookRms = rmsDb(book);
    const mp3Rms = (rmsDb(path.join(folder, mp3s[0])) + rmsDb(path.join(folder, mp3s[1]))) / 2;
    assert.ok(Math.abs(bookRms - mp3Rms) <= 1, `M4B ${bookRms} dB, chapter MP3s ${mp3Rms} dB`);
    assert.ok(bookRms >= -23 && bookRms <= -18, `${bookRms} dB`);
    const head = spawnSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostats',
        '-t',
        '0.5',
        '-i',
        book,
        '-af',
        'astats=measure_overall=RMS_level:measure_perchannel=none',
        '-f',
        'null',
        '-',
      ],
      { encoding: 'utf8' },
    );
    const headRms = /RMS level dB: (-?inf|-?[\d.]+)/.exec(head.stderr)![1];
    assert.ok(headRms === '-inf' || Number(headRms) < -55, `the first half second is room tone (${headRms} dB)`);
  });

  it('refuses ACX for a single MP3 book before synthesizing anything, naming what ACX takes', async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), BOOK);
    const run = await runCli([
      'audiobook',
      path.join(dir, 'book.md'),
      '--out',
      path.join(dir, 'book.mp3'),
      '--master',
      'acx',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /ACX takes one MP3 per chapter, never one file for the book/);
    assert.ok(!(await readdir(dir)).includes('book.mp3'), 'no book was written');
  });
});
