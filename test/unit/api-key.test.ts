import assert from 'node:assert/strict';
import { rm, stat } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import {
  apiKeyPath,
  ensureApiKey,
  FileApiKeySource,
  generateApiKey,
  keysMatch,
  writeApiKey,
} from '../../src/http/api-key';
import { tempDir } from '../helpers/temp';

describe('API keys', () => {
  let dir: string;
  after(() => rm(dir, { recursive: true, force: true }));

  it('generates ssk_local_ keys with 32 base62 characters, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    assert.equal(keys.size, 200);
    for (const key of keys) assert.match(key, /^ssk_local_[A-Za-z0-9]{32}$/);
  });

  it('compares keys of any length without throwing', () => {
    assert.equal(keysMatch('abc', 'abc'), true);
    assert.equal(keysMatch('abc', 'abd'), false);
    assert.equal(keysMatch('', 'abc'), false);
    assert.equal(keysMatch('x'.repeat(10_000), 'abc'), false);
  });

  it('creates the key once, owner-only, and the file source follows a regeneration at once', async () => {
    dir = await tempDir();
    const first = await ensureApiKey(dir);
    assert.equal(await ensureApiKey(dir), first);
    assert.equal((await stat(apiKeyPath(dir))).mode & 0o777, 0o600);
    const source = new FileApiKeySource(apiKeyPath(dir));
    assert.equal(source.current(), first);
    const second = await writeApiKey(dir);
    assert.equal(source.current(), second);
    await rm(apiKeyPath(dir));
    assert.equal(source.current(), undefined);
  });
});
