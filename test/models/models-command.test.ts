import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { runModelsCommand, type ModelsCommandOptions } from '../../src/cli/models-command';
import type { Catalog } from '../../src/models/catalog';
import { filesUnder } from '../helpers/files';
import { fixture, serve, startFixtureServer, type FixtureServer } from '../helpers/model-server';
import { tempDir } from '../helpers/temp';

const model = fixture(300_000, { ggml: true });
const tokens = fixture(200);
const catalog: Catalog = {
  version: 1,
  models: [
    {
      id: 'whisper-test',
      kind: 'stt',
      name: 'Whisper test',
      languages: ['mul'],
      license: 'MIT',
      files: [{ url: 'https://models.test/ggml-test.bin', target: 'whisper/ggml-test.bin', size: model.bytes.length, sha256: model.sha256, checksum: 'verify', source: 'test' }],
    },
    {
      id: 'voice-test',
      kind: 'tts-voice',
      name: 'Voice test',
      languages: ['en-US'],
      license: 'CC0-1.0',
      files: [{ url: 'https://models.test/tokens.txt', target: 'tts/voice-test/tokens.txt', size: null, sha256: null, checksum: 'record-on-first-download', source: 'test' }],
    },
  ],
};

class Captured {
  text = '';
  constructor(readonly isTTY = false) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

describe('models command', () => {
  let server: FixtureServer;
  let dataDir: string;

  before(async () => {
    server = await startFixtureServer({ '/models.test/ggml-test.bin': serve(model.bytes), '/models.test/tokens.txt': serve(tokens.bytes) });
    dataDir = await tempDir('speech studio cli ');
  });
  after(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function run(args: string[], tty = false): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout = new Captured();
    const stderr = new Captured(tty);
    const options: ModelsCommandOptions = {
      stdout,
      stderr,
      catalog,
      mirror: server.base,
      env: {},
      manager: { retries: 0, progressIntervalMs: 0 },
      progressEveryMs: 0,
    };
    const code = await runModelsCommand(args, dataDir, options);
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  it('installs a model, printing progress lines to stderr and where it went to stdout', async () => {
    const { code, stdout, stderr } = await run(['install', 'whisper-test']);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Installed whisper-test:\n .*ggml-test\.bin \(300\.0 kB, sha256 verified\)/);
    assert.match(stderr, /whisper-test {2}ggml-test\.bin {2}[\d.]+ kB \/ 300\.0 kB {2}\d+%/);
    assert.ok(!stderr.includes('\r'), 'no carriage returns in a log');
  });

  it('rewrites one progress line in place on a terminal', async () => {
    const { code, stderr, stdout } = await run(['install', 'voice-test'], true);
    assert.equal(code, 0);
    // eslint-disable-next-line no-control-regex -- the terminal's erase-line escape, which the progress line writes
    assert.match(stderr, /\r\x1b\[2Kvoice-test {2}tokens\.txt/);
    assert.match(stdout, new RegExp(`no published checksum to verify against, sha256 recorded: ${tokens.sha256}`));
  });

  it('lists, verifies and removes', async () => {
    const listed = await run(['list']);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /whisper-test +stt +mul +300\.0 kB +installed\n/);
    assert.match(listed.stdout, /voice-test .*installed \(sha256 recorded, no upstream value\)/);
    const verified = await run(['verify']);
    assert.equal(verified.code, 0);
    assert.match(verified.stdout, /ok +whisper-test/);
    const removed = await run(['remove', 'whisper-test']);
    assert.equal(removed.stdout, 'Removed whisper-test (1 file).\n');
    assert.equal((await run(['remove', 'whisper-test'])).stdout, 'whisper-test was not installed; nothing to remove.\n');
  });

  it('exits 1 with the reason for an unknown model, and 2 for a usage error', async () => {
    const unknown = await run(['install', 'whisper-huge']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /There is no model "whisper-huge"/);
    const usage = await run(['install']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Usage:/);
    assert.equal((await run([])).code, 2);
  });

  it('leaves no partial files after a failed install', async () => {
    server.route('/models.test/ggml-test.bin', serve(fixture(model.bytes.length).bytes));
    const { code, stderr } = await run(['install', 'whisper-test']);
    assert.equal(code, 1);
    assert.match(stderr, /has sha256 [0-9a-f]{64}, but the catalog expects/);
    assert.deepEqual((await filesUnder(dataDir)).filter((f) => f.includes('.partial')), []);
  });
});
