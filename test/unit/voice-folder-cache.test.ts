import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { noteFolderChange } from '../../src/util/folder-changes';
import { VoiceFolderCache } from '../../src/voices/voice-folder-cache';

describe('VoiceFolderCache', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'voice-folder-cache-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads the folders once while nothing changes, and again at once after this process notes a write', async () => {
    const models = path.join(root, 'noted');
    await mkdir(path.join(models, 'tts'), { recursive: true });
    let reads = 0;
    const cache = new VoiceFolderCache(models, () => ++reads);
    try {
      assert.equal(cache.get(), 1);
      assert.equal(cache.get(), 1);
      assert.equal(cache.get(), 1);
      noteFolderChange(models);
      assert.equal(cache.get(), 2);
      assert.equal(cache.get(), 2);
    } finally {
      cache.close();
    }
  });

  it('reads again after a voice folder appears, even with nothing watching (no models folder at first)', async () => {
    const models = path.join(root, 'unwatched');
    let reads = 0;
    const cache = new VoiceFolderCache(models, () => ++reads);
    try {
      assert.equal(cache.get(), 1);
      await mkdir(path.join(models, 'tts', 'a-voice'), { recursive: true });
      await writeFile(path.join(models, 'tts', 'a-voice', 'voice.json'), '{}');
      const deadline = Date.now() + 30_000;
      while (cache.get() === 1) {
        assert.ok(Date.now() < deadline, 'the new folder was never noticed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      cache.close();
    }
  });
});
