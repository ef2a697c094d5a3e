import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { warmModelSlot, type WarmModelLoader } from '../../src/engine/stt/warm-model';
import { tempDir } from '../helpers/temp';

/** A stand-in for the binding's context: records its release. */
class FakeContext {
  released = 0;
  constructor(readonly modelPath: string) {}
  async release(): Promise<void> {
    this.released++;
  }
}

/** A loader that records what it did; model files whose name contains "broken" fail to load. */
function recordingLoader(overrides: Partial<WarmModelLoader<FakeContext>> = {}) {
  const events: string[] = [];
  const made: FakeContext[] = [];
  const loader: WarmModelLoader<FakeContext> = {
    prepare: async () => void events.push('prepare'),
    init: async (modelPath) => {
      events.push(`init ${path.basename(modelPath)}`);
      if (modelPath.includes('broken')) throw new Error('native load failed');
      const context = new FakeContext(modelPath);
      made.push(context);
      return context;
    },
    loadFailed: (modelPath) => new Error(`${path.basename(modelPath)} could not be loaded`),
    ...overrides,
  };
  return { loader, events, made };
}

describe('warmModelSlot: one model kept loaded between jobs', () => {
  let dir: string;
  let a: string;
  let b: string;
  let broken: string;
  before(async () => {
    dir = await tempDir('warm model ');
    [a, b, broken] = ['a.bin', 'b.bin', 'broken.bin'].map((name) => path.join(dir, name));
    for (const file of [a, b, broken]) await writeFile(file, 'model');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('loads a model once and hands the same context to every later job', async () => {
    const { loader, events } = recordingLoader();
    const slot = warmModelSlot(loader);
    const first = await slot.load(a);
    const again = await slot.load(a);
    assert.equal(again, first);
    assert.deepEqual(events, ['prepare', 'init a.bin']);
  });

  it('releases the loaded model before loading another path', async () => {
    const { loader, events, made } = recordingLoader();
    const slot = warmModelSlot(loader);
    await slot.load(a);
    const second = await slot.load(b);
    assert.equal(made[0].released, 1);
    assert.equal(second.modelPath, b);
    assert.deepEqual(events, ['prepare', 'init a.bin', 'prepare', 'init b.bin']);
  });

  it('says a missing file is not installed, without preparing or loading anything, and keeps the warm model', async () => {
    const { loader, events, made } = recordingLoader();
    const slot = warmModelSlot(loader);
    await slot.load(a);
    await assert.rejects(
      slot.load(path.join(dir, 'missing.bin')),
      /The speech-to-text model missing\.bin is not installed\./,
    );
    assert.deepEqual(events, ['prepare', 'init a.bin']);
    assert.equal(made[0].released, 0);
    assert.equal(await slot.load(a), made[0]);
  });

  it("reports a model that does not load with the recognizer's sentence, and leaves the slot empty", async () => {
    const { loader, events } = recordingLoader();
    const slot = warmModelSlot(loader);
    await assert.rejects(slot.load(broken), /^Error: broken\.bin could not be loaded$/);
    await assert.rejects(slot.load(broken), /could not be loaded/);
    assert.deepEqual(
      events,
      ['prepare', 'init broken.bin', 'prepare', 'init broken.bin'],
      'a failed load is tried again, not remembered',
    );
    await slot.release();
  });

  it('lets an error of prepare (a missing native part) through as it is', async () => {
    const { loader, events } = recordingLoader({
      prepare: async () => {
        throw new Error('the whisper native part is missing');
      },
    });
    const slot = warmModelSlot(loader);
    await assert.rejects(slot.load(a), /^Error: the whisper native part is missing$/);
    assert.deepEqual(events, []);
  });

  it('release frees the model once, and a later load loads it again', async () => {
    const { loader, events, made } = recordingLoader();
    const slot = warmModelSlot(loader);
    await slot.release();
    await slot.load(a);
    await slot.release();
    await slot.release();
    assert.equal(made[0].released, 1);
    await slot.load(a);
    assert.deepEqual(events, ['prepare', 'init a.bin', 'prepare', 'init a.bin']);
  });
});
