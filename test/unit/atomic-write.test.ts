// One atomic-write mechanism for every file the server rewrites (issue 24 #3).
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { writeFileAtomic } from '../../src/util/atomic-write';
import { tempDir } from '../helpers/temp';

describe('writeFileAtomic', () => {
  it('50 writes at once to one file all succeed, the file is one of them whole, and no temporary file is left', async () => {
    const dir = await tempDir();
    try {
      const file = path.join(dir, 'lexicon.json');
      const bodies = Array.from(
        { length: 50 },
        (_, index) => `${JSON.stringify({ index, pad: 'x'.repeat(20_000 + index) })}\n`,
      );
      await Promise.all(bodies.map((body) => writeFileAtomic(file, body)));
      assert.ok(bodies.includes(await readFile(file, 'utf8')));
      assert.deepEqual(await readdir(dir), ['lexicon.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the last write issued is the one that stays, and a mode is applied to the file', async () => {
    const dir = await tempDir();
    try {
      const file = path.join(dir, 'api-key');
      await Promise.all(['one', 'two', 'three'].map((key) => writeFileAtomic(file, key, { mode: 0o600 })));
      assert.equal(await readFile(file, 'utf8'), 'three');
      assert.equal((await stat(file)).mode & 0o777, 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a failed write leaves the old file and no temporary file, and the next write still runs', async () => {
    const dir = await tempDir();
    try {
      const file = path.join(dir, 'settings.json');
      await writeFileAtomic(file, 'old');
      await assert.rejects(writeFileAtomic(path.join(dir, 'missing', 'x.json'), 'new'), { code: 'ENOENT' });
      await writeFileAtomic(file, 'newer');
      assert.equal(await readFile(file, 'utf8'), 'newer');
      assert.deepEqual(await readdir(dir), ['settings.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
