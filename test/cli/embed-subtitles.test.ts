import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';

describe('cli.js embed-subtitles', () => {
  let dir: string;
  let video: string;
  before(async () => {
    dir = await tempDir('speech-cli-embed-');
    video = path.join(dir, 'clip.mkv');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=25:duration=2',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-shortest',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      video,
    ]);
    await writeFile(
      path.join(dir, 'clip.de.sbv'),
      '0:00:00.200,0:00:00.900\nHallo.\n\n0:00:01.000,0:00:01.800\nWelt.\n',
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes a Matroska copy with a German subrip track from an SBV file, the video copied bit for bit', async () => {
    const out = path.join(dir, 'clip.subtitled.mkv');
    const run = await runCli(['embed-subtitles', video, path.join(dir, 'clip.de.sbv'), '--out', out]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /2 cues as a subrip track \(ger\)/);
    const probe = JSON.parse(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        's',
        '-show_entries',
        'stream=codec_name:stream_tags=language',
        '-of',
        'json',
        out,
      ]).toString(),
    ) as { streams: { codec_name: string; tags?: { language?: string } }[] };
    assert.deepEqual(
      probe.streams.map((s) => [s.codec_name, s.tags?.language]),
      [['subrip', 'ger']],
    );
    const hash = (file: string): string =>
      execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-'])
        .toString()
        .trim();
    assert.equal(hash(out), hash(video));
  });

  it('says what is wrong, with exit codes, and writes nothing', async () => {
    const missingOut = await runCli(['embed-subtitles', video, path.join(dir, 'clip.de.sbv')]);
    assert.notEqual(missingOut.code, 0);
    assert.match(missingOut.stderr, /needs --out/);
    const avi = await runCli([
      'embed-subtitles',
      video,
      path.join(dir, 'clip.de.sbv'),
      '--out',
      path.join(dir, 'x.avi'),
    ]);
    assert.equal(avi.code, 1);
    assert.match(avi.stderr, /not \.avi/);
    assert.equal(existsSync(path.join(dir, 'x.avi')), false);
  });
});
