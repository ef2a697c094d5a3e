// What is installed in a data directory's models/ folder, read from real model files: the shared synthetic
// whisper model (test/unit reads no shared test model) and the generated Parakeet model. Listing them, each with
// its engine, and the verified takes' scorer chosen from them.
import assert from 'node:assert/strict';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { admitVerify } from '../../src/jobs/verify-admission';
import { listSttModels } from '../../src/models/installed-models';
import { SYNTHETIC_PARAKEET_NAME, syntheticParakeetModel } from '../helpers/parakeet-model';
import { tempDir, useWorkDirs } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

describe('listing installed STT models', () => {
  let dir = '';
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('lists whisper files in models/whisper and Parakeet files in models/parakeet, each with its engine', async () => {
    await mkdir(path.join(dir, 'models', 'whisper'), { recursive: true });
    await mkdir(path.join(dir, 'models', 'parakeet'), { recursive: true });
    await symlink(testModel('whisper', 'ggml-synthetic-random.bin'), path.join(dir, 'models', 'whisper', 'ggml-synthetic-random.bin'));
    await symlink(await syntheticParakeetModel(), path.join(dir, 'models', 'parakeet', SYNTHETIC_PARAKEET_NAME));
    // A whisper file put in the Parakeet folder is not a Parakeet model.
    await symlink(testModel('whisper', 'ggml-synthetic-random.bin'), path.join(dir, 'models', 'parakeet', 'ggml-misplaced.bin'));
    await writeFile(path.join(dir, 'models', 'parakeet', 'notes.txt'), 'not a model');
    const models = await listSttModels(dir);
    assert.deepEqual(models.map((m) => [m.name, m.engine, m.languages?.length]), [
      ['ggml-synthetic-random.bin', 'whisper', undefined],
      [SYNTHETIC_PARAKEET_NAME, 'parakeet', 25],
    ]);
  });
});

const workDir = useWorkDirs();

describe('verified takes admission', () => {
  it('hears takes with the aligner at 25 % when no recognizer is installed, and with the whisper model at 10 % when one is', async () => {
    const dir = await workDir();
    assert.deepEqual(await admitVerify({}, dir, 'en-US'), { threshold: 0.25, retakes: 2, scorer: { kind: 'aligner', language: 'en-US' } });
    await mkdir(path.join(dir, 'models', 'whisper'), { recursive: true });
    const model = path.join(dir, 'models', 'whisper', 'ggml-synthetic-random.bin');
    await symlink(testModel('whisper', 'ggml-synthetic-random.bin'), model);
    const verify = await admitVerify({ retakes: 0 }, dir, 'en-US');
    assert.deepEqual(verify, { threshold: 0.1, retakes: 0, scorer: { kind: 'recognizer', modelPath: model, model: 'ggml-synthetic-random.bin', language: 'en-US' } });
    assert.equal((await admitVerify({ threshold: 0.4 }, dir, 'en')).threshold, 0.4, 'a threshold asked wins');
  });
});
