import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { makeDocx, makeEpub2, makeEpub3 } from '../helpers/book-files';
import { runCli } from '../helpers/cli';
import { useWorkDirs } from '../helpers/temp';
import { epubcheck, readOverlays, type OverlayClip } from '../helpers/epubcheck';

const run = promisify(execFile);
const workDir = useWorkDirs();

async function audioSeconds(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

/** The RMS level (dB) of `file` between two times, measured by ffmpeg's astats. */
async function rmsDb(file: string, from: number, to: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostats',
    '-i',
    file,
    '-af',
    `atrim=start=${from}:end=${to},astats=measure_overall=RMS_level:measure_perchannel=none`,
    '-f',
    'null',
    '-',
  ]);
  const level = /RMS level dB: (\S+)/.exec(stderr)?.[1];
  return level === '-inf' ? -Infinity : Number(level);
}

/**
 * The overlays agree with the audio: in each chapter file the clips follow one another without overlap,
 * the last ends where the audio does, every clip holds speech and the pauses between clips are silent.
 */
async function checkClipsAgainstAudio(clips: OverlayClip[], audioFiles: Map<string, string>): Promise<void> {
  for (const [audio, file] of audioFiles) {
    const own = clips.filter((clip) => clip.audio === audio);
    assert.ok(own.length > 0, `${audio} is used by no clip`);
    assert.equal(own[0].begin, 0);
    for (let i = 1; i < own.length; i++)
      assert.ok(own[i].begin >= own[i - 1].end, `${own[i].id} begins before ${own[i - 1].id} ends`);
    const duration = await audioSeconds(file);
    assert.ok(
      Math.abs(duration - own[own.length - 1].end) < 0.05,
      `${audio}: ${duration} s of audio, the last clip ends at ${own[own.length - 1].end}`,
    );
    for (const [index, clip] of own.entries()) {
      assert.ok(clip.end - clip.begin > 0.2, `${clip.id} is ${clip.end - clip.begin} s`);
      assert.ok((await rmsDb(file, clip.begin, clip.end)) > -40, `${clip.id} holds no speech`);
      // The pause before a clip (trimmed of 20 ms at each edge for the encoder's smearing) is silence.
      if (index > 0 && clip.begin - own[index - 1].end > 0.1)
        assert.ok(
          (await rmsDb(file, own[index - 1].end + 0.02, clip.begin - 0.02)) < -50,
          `the pause before ${clip.id} is not silent`,
        );
    }
  }
}

describe('node dist/cli.js audiobook --format epub3 (read-along books)', () => {
  it('turns an EPUB into a read-along EPUB 3 that passes EPUBCheck, keeping its own files and adding only ids, overlays and audio', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'book.epub');
    await writeFile(input, makeEpub3());
    const out = path.join(dir, 'read-along.epub');
    const result = await runCli([
      'audiobook',
      input,
      '--out',
      out,
      '--format',
      'epub3',
      '--chapters',
      '2-4',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Wrote .*read-along\.epub: 3 chapters\.$/m);
    const check = await epubcheck(out);
    assert.deepEqual(check.errors, [], check.output);
    assert.equal(check.code, 0, check.output);

    const original = unzipSync(makeEpub3());
    const book = readOverlays(new Uint8Array(await readFile(out)));
    for (const kept of ['OEBPS/css/book.css', 'OEBPS/images/pixel.png', 'OEBPS/text/cover.xhtml', 'OEBPS/nav.xhtml']) {
      assert.deepEqual(book.files[kept], original[kept], `${kept} changed`);
    }
    const chapters = book.text('OEBPS/text/chapters.xhtml');
    const stripped = chapters
      .replace(/<span id="ss\d+-\d+">/g, '')
      .replace(/<\/span>/g, '')
      .replace(/<link rel="stylesheet" type="text\/css" href="\.\.\/read-along\/read-along\.css"\/>/, '');
    assert.equal(stripped, Buffer.from(original['OEBPS/text/chapters.xhtml']).toString('utf8'));

    // Copyright (2), The Harbour (3), The Storm (4): every sentence of them, in order, and nothing of the cover or index.
    assert.deepEqual(
      book.clips.map((clip) => clip.id),
      ['ss2-1', 'ss2-2', 'ss3-1', 'ss3-2', 'ss3-3', 'ss3-4', 'ss3-5', 'ss3-6', 'ss3-7', 'ss3-8'],
    );
    for (const clip of book.clips) assert.match(book.text(clip.document), new RegExp(`id="${clip.id}"`));
    const audio = [...new Set(book.clips.map((clip) => clip.audio))];
    assert.equal(audio.length, 3);
    const files = new Map<string, string>();
    for (const [index, name] of audio.entries()) {
      const file = path.join(dir, `chapter-${index}.m4a`);
      await writeFile(file, book.files[name]);
      files.set(name, file);
    }
    await checkClipsAgainstAudio(book.clips, files);

    const opf = book.text('OEBPS/content.opf');
    assert.match(opf, /<meta property="media:active-class">-epub-media-overlay-active<\/meta>/);
    const total = /<meta property="media:duration">(\d+):(\d+):([\d.]+)<\/meta>/.exec(opf)!;
    const clipped = book.clips.reduce((sum, clip) => sum + clip.end - clip.begin, 0);
    assert.ok(Math.abs(Number(total[1]) * 3600 + Number(total[2]) * 60 + Number(total[3]) - clipped) < 0.01);
    assert.match(book.text('OEBPS/read-along/read-along.css'), /\.-epub-media-overlay-active \{/);
  });

  it('makes a read-along EPUB 3 from a DOCX (new chapter documents) that passes EPUBCheck', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'tales.docx');
    await writeFile(input, makeDocx());
    const out = path.join(dir, 'tales.epub');
    const result = await runCli(['audiobook', input, '--out', out, '--data-dir', path.join(dir, 'data')]);
    assert.equal(result.code, 0, result.stderr);
    const check = await epubcheck(out);
    assert.deepEqual(check.errors, [], check.output);
    const book = readOverlays(new Uint8Array(await readFile(out)));
    assert.deepEqual(
      [...new Set(book.clips.map((clip) => clip.document))],
      ['EPUB/chapter-001.xhtml', 'EPUB/chapter-002.xhtml', 'EPUB/chapter-003.xhtml'],
    );
    assert.match(book.text('EPUB/chapter-002.xhtml'), /<span id="c2-s2">Koa arrived at dawn\.<\/span>/);
  });

  it('makes an EPUB 2 into a read-along EPUB 3 without errors, its unread document given the HTML5 doctype too', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'old.epub');
    await writeFile(input, makeEpub2());
    const out = path.join(dir, 'old-read-along.epub');
    const result = await runCli([
      'audiobook',
      input,
      '--out',
      out,
      '--chapters',
      '2',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    const check = await epubcheck(out);
    assert.deepEqual(check.errors, [], check.output);
    const book = readOverlays(new Uint8Array(await readFile(out)));
    assert.deepEqual(
      book.clips.map((clip) => [clip.document, clip.id]),
      [
        ['OEBPS/one.html', 'ss2-1'],
        ['OEBPS/one.html', 'ss2-2'],
      ],
    );
    assert.match(book.text('OEBPS/two.html'), /<!DOCTYPE html>[\s\S]*The first words&#160;came slowly\./);
    assert.ok(book.files['OEBPS/read-along/nav.xhtml'], 'no EPUB 3 nav document was added');
  });

  it('lists the chapters, and refuses a chapter list the book does not have before any synthesis', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'book.epub');
    await writeFile(input, makeEpub3());
    const listed = await runCli(['audiobook', input, '--list-chapters', '--data-dir', path.join(dir, 'data')]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.trim()),
      [
        '1  Cover  (front matter, skipped unless named)',
        '2  Copyright  (front matter, skipped unless named)',
        '3  The Harbour',
        '4  The Storm',
        '5  Index  (back matter, skipped unless named)',
      ],
    );
    const refused = await runCli([
      'audiobook',
      input,
      '--out',
      path.join(dir, 'x.epub'),
      '--chapters',
      '4-6',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /names chapters 4-6, but the book has chapters 1-5/);
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name !== 'data'),
      ['book.epub'],
    );
  });
});
