import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli';
import { useWorkDirs } from '../helpers/temp';
import { CLI } from '../helpers/server';
import { LONG_TEXT } from '../helpers/voices';

const workDir = useWorkDirs();

async function probe(file: string): Promise<{ chapters: any[]; format: any }> {
  const { stdout } = await promisify(execFile)('ffprobe', [
    '-v',
    'error',
    '-show_chapters',
    '-show_format',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout);
}

const BOOK = `---
title: "The Koa Book"
author: Ann Writer
---

# One: Arrival

Koa arrived at the harbour.

## A section, still in chapter one

\`\`\`
# not a heading, code
\`\`\`

# Two; Departure

Koa left again.
`;

describe('node dist/cli.js audiobook', () => {
  it("makes one M4B with a chapter marker per top heading and the front matter's title and author", async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), BOOK);
    const out = path.join(dir, 'book.m4b');
    const run = await runCli(['audiobook', path.join(dir, 'book.md'), '--out', out, '--data-dir', await workDir()]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Chapter 1\/2 "One: Arrival": done, [\d.]+ s$/m);
    assert.match(run.stdout, /^Wrote .*book\.m4b: 2 chapters\.$/m);
    const { chapters, format } = await probe(out);
    assert.deepEqual(
      chapters.map((c) => c.tags.title),
      ['One: Arrival', 'Two; Departure'],
    );
    assert.equal(chapters[0].start, 0);
    assert.equal(chapters[1].start, chapters[0].end);
    assert.ok(
      Math.abs(Number(format.duration) - Number(chapters[1].end_time)) < 0.1,
      `${format.duration} vs ${chapters[1].end_time}`,
    );
    assert.deepEqual([format.tags.title, format.tags.artist], ['The Koa Book', 'Ann Writer']);
    assert.match(format.format_name, /mp4/);
    assert.deepEqual((await readdir(dir)).sort(), ['book.m4b', 'book.md']);
  });

  it("reads a folder's .md files in name order as one book, and writes MP3 with chapters", async () => {
    const dir = await workDir();
    const folder = path.join(dir, 'manuscript');
    await mkdir(folder);
    await writeFile(path.join(folder, '10-end.md'), '# The End\n\nGoodbye.\n');
    await writeFile(path.join(folder, '2-start.md'), '# The Start\n\nHello.\n');
    const out = path.join(dir, 'book.mp3');
    const run = await runCli([
      'audiobook',
      folder,
      '--out',
      out,
      '--format',
      'mp3',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const { chapters, format } = await probe(out);
    assert.equal(format.format_name, 'mp3');
    assert.deepEqual(
      chapters.map((c) => c.tags.title),
      ['The Start', 'The End'],
    );
  });

  it('re-exports from the cache: only the paragraph that changed is synthesized again', async () => {
    const dir = await workDir();
    const dataDir = await workDir();
    const source = path.join(dir, 'book.md');
    await writeFile(source, BOOK);
    const out = path.join(dir, 'book.m4b');
    const first = await runCli(['audiobook', source, '--out', out, '--data-dir', dataDir]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^6 paragraphs synthesized, 0 from the cache\.$/m);
    const again = await runCli(['audiobook', source, '--out', out, '--data-dir', dataDir]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^0 paragraphs synthesized, 6 from the cache\.$/m);
    await writeFile(source, BOOK.replace('Koa left again.', 'Koa left again, much later, in the rain.'));
    const edited = await runCli(['audiobook', source, '--out', out, '--data-dir', dataDir]);
    assert.equal(edited.code, 0, edited.stderr);
    assert.match(edited.stdout, /^1 paragraphs synthesized, 5 from the cache\.$/m);
    const { chapters } = await probe(out);
    assert.ok(Number(chapters[1].end_time) - Number(chapters[1].start_time) > 3, 'the longer sentence is in the book');
  });

  it('switches voices at <!-- voice: --> tags and Name: prefixes, and says which voice it cannot find', async () => {
    const dir = await workDir();
    const dataDir = await workDir();
    const source = path.join(dir, 'voices.md');
    await writeFile(
      source,
      '# Voices\n\nHello there.\n\nHello there.\n\n<!-- voice: English (Great Britain) -->\n\nHello there.\n\n<!-- voice: default -->\n\nAnn: Hello there.\n',
    );
    const run = await runCli([
      'audiobook',
      source,
      '--out',
      path.join(dir, 'v.m4b'),
      '--speakers',
      'Ann=German',
      '--data-dir',
      dataDir,
    ]);
    assert.equal(run.code, 0, run.stderr);
    // The heading, then "Hello there." in the book's voice twice (once from the cache), in the British voice, and as Ann.
    assert.match(run.stdout, /^4 paragraphs synthesized, 1 from the cache\.$/m);
    const unknown = await runCli([
      'audiobook',
      source,
      '--out',
      path.join(dir, 'x.m4b'),
      '--speakers',
      'Ann=Nobody Such',
      '--data-dir',
      dataDir,
    ]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No voice "Nobody Such" in the voice library/);
    assert.deepEqual((await readdir(dir)).sort(), ['v.m4b', 'voices.md']);
  });

  it('writes one tagged MP3 per chapter into a folder with --per-chapter, and will not overwrite other files', async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), BOOK);
    const out = path.join(dir, 'chapters');
    const run = await runCli([
      'audiobook',
      path.join(dir, 'book.md'),
      '--out',
      out,
      '--per-chapter',
      '--data-dir',
      await workDir(),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((await readdir(out)).sort(), ['01 One Arrival.mp3', '02 Two; Departure.mp3']);
    const { format } = await probe(path.join(out, '02 Two; Departure.mp3'));
    assert.equal(format.format_name, 'mp3');
    assert.deepEqual(
      [format.tags.title, format.tags.track, format.tags.album, format.tags.artist],
      ['Two; Departure', '2/2', 'The Koa Book', 'Ann Writer'],
    );
    await writeFile(path.join(out, 'notes.txt'), 'mine');
    const refused = await runCli([
      'audiobook',
      path.join(dir, 'book.md'),
      '--out',
      out,
      '--per-chapter',
      '--data-dir',
      await workDir(),
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /holds files other than an earlier export's MP3s/);
    assert.equal((await readdir(out)).length, 3);
  });

  it('stops on Ctrl+C (SIGINT) with code 130 and leaves no book, partial file or work folder', async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'long.md'), `# Long\n\n${LONG_TEXT}\n\n# Later\n\nNever read.\n`);
    // The data directory (with the re-export cache) lives elsewhere, as it does for users.
    const dataDir = await workDir();
    const child = spawn(
      process.execPath,
      [CLI, 'audiobook', path.join(dir, 'long.md'), '--out', path.join(dir, 'long.m4b'), '--data-dir', dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // Inside the long paragraph: the export is a job, and its progress counts characters read.
        if (/: [1-9]\d% \(synthesizing\)$/m.test(output)) resolve();
      });
      void exited.then(() => reject(new Error(`exited before any progress:\n${output}`)));
    });
    child.kill('SIGINT');
    assert.equal(await exited, 130, output);
    assert.doesNotMatch(output, /Chapter 2\/2/);
    assert.deepEqual((await readdir(dir)).sort(), ['long.md']);
    // The heading's paragraph may be finished and cached; nothing half-made is.
    for (const name of await readdir(path.join(dataDir, 'cache', 'audiobook')))
      assert.match(name, /^[0-9a-f]{64}\.wav$/, 'no scratch folder or half-made paragraph is left in the cache');
    assert.deepEqual(await readdir(path.join(dataDir, 'jobs')), [], 'the job and its work folder are gone');
  });

  describe('checks its inputs before any synthesis, with one sentence each', () => {
    /** Runs the export expecting a refusal; no synthesis happened (the re-export cache was never made). */
    async function refused(input: string, out: string): Promise<string> {
      const dataDir = await workDir();
      const run = await runCli(['audiobook', input, '--out', out, '--data-dir', dataDir]);
      assert.equal(run.code, 1, run.stdout);
      assert.deepEqual(await readdir(dataDir).catch(() => []), [], 'nothing was synthesized');
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      return lines[0];
    }

    it('refuses a FIFO, and a folder holding one, instead of waiting forever', { timeout: 60_000 }, async () => {
      const dir = await workDir();
      const fifo = path.join(dir, 'pipe.md');
      await promisify(execFile)('mkfifo', [fifo]);
      assert.match(await refused(fifo, path.join(dir, 'a.m4b')), /pipe\.md is not a regular file/);
      assert.match(await refused(dir, path.join(dir, 'b.m4b')), /pipe\.md is not a regular file/);
    });

    it('names a sub-folder called *.md instead of failing with EISDIR', async () => {
      const dir = await workDir();
      await mkdir(path.join(dir, 'manuscript', 'drafts.md'), { recursive: true });
      await writeFile(path.join(dir, 'manuscript', '1.md'), '# One\n\nText.\n');
      const message = await refused(path.join(dir, 'manuscript'), path.join(dir, 'book.m4b'));
      assert.match(message, /drafts\.md is a folder, not a Markdown file/);
      assert.doesNotMatch(message, /EISDIR/);
    });

    it('refuses 200 KB of binary garbage at once', { timeout: 60_000 }, async () => {
      const dir = await workDir();
      const garbage = path.join(dir, 'garbage.md');
      await writeFile(garbage, randomBytes(200 * 1024));
      assert.match(await refused(garbage, path.join(dir, 'book.m4b')), /garbage\.md is not UTF-8 text/);
    });

    it('refuses a manuscript over the size bound', async () => {
      const dir = await workDir();
      const big = path.join(dir, 'big.md');
      await writeFile(big, '# Big\n\n');
      await truncate(big, 9 * 1024 * 1024);
      assert.match(
        await refused(big, path.join(dir, 'book.m4b')),
        /The manuscript is 9\.0 MB, more than the 8\.0 MB an export reads/,
      );
    });

    it('refuses an output in a missing folder before synthesizing any chapter', async () => {
      const dir = await workDir();
      await writeFile(path.join(dir, 'book.md'), BOOK);
      const message = await refused(path.join(dir, 'book.md'), path.join(dir, 'missing', 'book.m4b'));
      assert.match(message, /The folder .*missing does not exist/);
    });
  });

  it('refuses a missing --out with the usage', async () => {
    const run = await runCli(['audiobook', 'book.md']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /audiobook needs --out/);
  });
});
