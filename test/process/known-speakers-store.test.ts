/**
 * The known-speakers file as several processes and careless hands meet it: ten enrollments from ten processes
 * at once all land; a damaged file is set aside (kept, not lost) and read as no speakers, so GET /v1/speakers
 * and the CLI keep working; a name typed in NFC or NFD is one speaker.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { listSpeakers, removeSpeaker } from '../../src/jobs/speaker-enrollment';
import {
  knownSpeakersPath,
  normalizeSpeakerName,
  readKnownSpeakers,
  updateKnownSpeakers,
  type KnownSpeaker,
} from '../../src/voices/known-speakers';
import { tempDir } from '../helpers/temp';

const MODULE = path.resolve(__dirname, '..', '..', 'src', 'voices', 'known-speakers.ts');

const speaker = (name: string): KnownSpeaker => ({
  name,
  embedding: [1, 0, 0],
  model: 'm.onnx',
  speechSeconds: 3,
  addedAt: new Date(0).toISOString(),
});

/** One process that adds one speaker through the module, as `cli.js speakers add` does in its own process. */
function addInAnotherProcess(dataDir: string, name: string): Promise<number> {
  const script = `
    const loaded = await import(${JSON.stringify(MODULE)});
    const { updateKnownSpeakers } = loaded.updateKnownSpeakers ? loaded : loaded.default;
    await updateKnownSpeakers(${JSON.stringify(dataDir)}, (current) => ({
      speakers: [...current, { name: ${JSON.stringify(name)}, embedding: [1, 0, 0], model: 'm.onnx', speechSeconds: 3, addedAt: new Date().toISOString() }],
      value: undefined,
    }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

describe('the known-speakers file', () => {
  it('keeps all of ten enrollments made by ten processes at once', { timeout: 120_000 }, async () => {
    const dataDir = await tempDir();
    const names = Array.from({ length: 10 }, (_, i) => `Speaker name ${String.fromCharCode(65 + i)}x`);
    const codes = await Promise.all(names.map((name) => addInAnotherProcess(dataDir, name)));
    assert.deepEqual(
      codes,
      names.map(() => 0),
    );
    const stored = (await readKnownSpeakers(dataDir)).map((known) => known.name).sort();
    assert.deepEqual(stored, [...names].sort());
    assert.equal(
      (await readdir(dataDir)).some((entry) => entry.endsWith('.lock')),
      false,
      'no lock is left behind',
    );
  });

  for (const [label, content] of [
    ['cut in half', '{"version":1,"speakers":[{"name":"Ann","embedding":[1,'],
    ['null', 'null'],
    ['not JSON at all', 'speakers: Ann'],
  ] as const) {
    it(`sets a damaged file aside and reads it as no speakers (${label}); the next enrollment works`, async () => {
      const dataDir = await tempDir();
      await writeFile(knownSpeakersPath(dataDir), content);
      assert.deepEqual(await listSpeakers(dataDir), []);
      const entries = await readdir(dataDir);
      const aside = entries.find((entry) => entry.startsWith('known-speakers.damaged-'));
      assert.ok(aside, `a copy is kept aside: ${entries.join(', ')}`);
      assert.equal(await readFile(path.join(dataDir, aside), 'utf8'), content);
      await updateKnownSpeakers(dataDir, (current) => ({ speakers: [...current, speaker('Ann')], value: undefined }));
      assert.deepEqual(
        (await listSpeakers(dataDir)).map((known) => known.name),
        ['Ann'],
      );
    });
  }

  it('reads a file an editor saved with a byte-order mark', async () => {
    const dataDir = await tempDir();
    await writeFile(knownSpeakersPath(dataDir), `\uFEFF${JSON.stringify({ version: 1, speakers: [speaker('Ann')] })}`);
    assert.deepEqual(
      (await listSpeakers(dataDir)).map((known) => known.name),
      ['Ann'],
    );
  });

  it('takes "José" in NFC and NFD as one name', async () => {
    const dataDir = await tempDir();
    const composed = 'Jos\u00e9';
    const decomposed = 'Jose\u0301';
    assert.equal(normalizeSpeakerName(decomposed), composed);
    await updateKnownSpeakers(dataDir, () => ({ speakers: [speaker(composed)], value: undefined }));
    assert.equal(await removeSpeaker(dataDir, decomposed), true);
    assert.deepEqual(await listSpeakers(dataDir), []);
  });
});
