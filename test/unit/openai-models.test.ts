// GET /models reads the voice library once per request, not once per voice (issue 24 #1).
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { AppDeps } from '../../src/jobs/app-deps';
import { listOpenAiModels } from '../../src/openai/models';
import { createVoiceLibrary, type VoiceLibrary } from '../../src/voices/library';
import { tempDir } from '../helpers/temp';

/** The real library of an empty data directory, counting how often its whole list is built. */
function countingLibrary(dataDir: string): { library: VoiceLibrary; builds: () => number } {
  const real = createVoiceLibrary({ dataDir });
  let builds = 0;
  const library: VoiceLibrary = {
    list: (query) => (builds++, real.list(query)),
    get: (id) => (builds++, real.get(id)),
    entries: () => (builds++, real.entries()),
    ttsInstalled: () => real.ttsInstalled(),
    close: () => real.close(),
  };
  return { library, builds: () => builds };
}

describe('listOpenAiModels', () => {
  it('builds the voice list once, and counts the ready voices of each engine', async () => {
    const dataDir = await tempDir();
    try {
      const { library, builds } = countingLibrary(dataDir);
      const models = await listOpenAiModels({ dataDir, voices: library } as unknown as AppDeps);
      assert.equal(builds(), 1);
      const espeak = models.find((model) => model.id === 'espeak-ng');
      const ready = createVoiceLibrary({ dataDir })
        .entries()
        .filter((entry) => entry.engine === 'espeak-ng' && entry.voice.availability === 'ready');
      assert.equal(espeak?.voices, ready.length);
      assert.ok(ready.length > 100);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
