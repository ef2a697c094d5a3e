import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { makeEpub3, makeRenamedEpub } from '../helpers/book-files';
import { runCli } from '../helpers/cli';
import { epubcheck } from '../helpers/epubcheck';
import { useWorkDirs } from '../helpers/temp';

const workDir = useWorkDirs();

/** A name an unzip tool places inside its target folder, and a reading system inside the book. */
const isSafe = (name: string): boolean =>
  !name.startsWith('/') &&
  !name.includes('\\') &&
  name.split('/').every((part) => part && part !== '.' && part !== '..');

describe('node dist/cli.js audiobook: read-along books from archives with unsafe entry names', () => {
  it('writes a read-along EPUB whose entry names are its own and plain, from a book whose names start with /', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'absolute.epub');
    await writeFile(input, makeRenamedEpub(makeEpub3(), 'absolute'));
    const out = path.join(dir, 'read-along.epub');
    const result = await runCli([
      'audiobook',
      input,
      '--out',
      out,
      '--format',
      'epub3',
      '--chapters',
      '3',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    const names = Object.keys(unzipSync(new Uint8Array(await readFile(out))));
    assert.deepEqual(
      names.filter((name) => !isSafe(name)),
      [],
    );
    assert.ok(names.includes('OEBPS/content.opf') && names.includes('OEBPS/images/pixel.png'), names.join(' '));
    const check = await epubcheck(out);
    assert.deepEqual(check.errors, [], check.output);
  });

  it('refuses a book whose entries climb out of the archive (../) before any synthesis, and writes nothing', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'climbing.epub');
    await writeFile(input, makeRenamedEpub(makeEpub3(), 'climbing'));
    const data = path.join(dir, 'data');
    const result = await runCli(['audiobook', input, '--out', path.join(dir, 'out.epub'), '--data-dir', data]);
    assert.equal(result.code, 1, result.stdout);
    assert.match(
      result.stderr,
      /climbing\.epub holds an entry named "[^"]*\.\.\/[^"]*", which points outside the archive/,
    );
    assert.deepEqual((await readdir(dir)).sort(), ['climbing.epub']);
    assert.deepEqual(await readdir(data).catch(() => []), []);
  });
});
