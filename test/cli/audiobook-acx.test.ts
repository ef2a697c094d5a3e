/**
 * `cli.js audiobook --per-chapter --master acx`: each chapter is mastered to Audible's rules and the report the
 * command prints is what ffprobe and ffmpeg measure in the files; ACX without one MP3 per chapter is refused
 * before any synthesis.
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
  const run = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-af', 'astats=measure_overall=RMS_level:measure_perchannel=none', '-f', 'null', '-'], { encoding: 'utf8' });
  const match = /RMS level dB: (-?[\d.]+)/.exec(run.stderr);
  assert.ok(match, run.stderr);
  return Number(match[1]);
}

describe('audiobook --master acx', () => {
  it('writes one 44.1 kHz 192 kbps MP3 per chapter and prints each file\'s compliance as ffmpeg measures it', async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), BOOK);
    const out = path.join(dir, 'acx');
    const run = await runCli(['audiobook', path.join(dir, 'book.md'), '--out', out, '--per-chapter', '--master', 'acx', '--data-dir', path.join(dir, 'data')]);
    assert.equal(run.code, 0, run.stderr);
    const files = (await readdir(out)).sort();
    assert.deepEqual(files, ['01 The Harbour.mp3', '02 The Market.mp3']);
    const lines = run.stdout.split('\n').filter((line) => line.startsWith('ACX '));
    assert.equal(lines.length, 2, run.stdout);
    for (const [index, file] of files.entries()) {
      const probed = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path.join(out, file)], { encoding: 'utf8' })).streams[0];
      assert.equal(probed.codec_name, 'mp3');
      assert.equal(Number(probed.sample_rate), 44_100);
      assert.equal(Number(probed.bit_rate), 192_000);
      const line = lines[index]!;
      assert.match(line, new RegExp(`^ACX complies: ${file.replace(/[.]/g, '\\.')}: RMS -\\d+\\.\\d dB, true peak -\\d+\\.\\d dB, noise floor`));
      const reported = Number(/RMS (-[\d.]+) dB/.exec(line)![1]);
      assert.ok(Math.abs(reported - rmsDb(path.join(out, file))) <= 0.06, `${line} against ${rmsDb(path.join(out, file))}`);
    }
  });

  it('refuses ACX for a single-file book before synthesizing anything', async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), BOOK);
    const run = await runCli(['audiobook', path.join(dir, 'book.md'), '--out', path.join(dir, 'book.m4b'), '--master', 'acx', '--data-dir', path.join(dir, 'data')]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /ACX takes one MP3 per chapter/);
    assert.ok(!(await readdir(dir)).includes('book.m4b'), 'no book was written');
  });
});
