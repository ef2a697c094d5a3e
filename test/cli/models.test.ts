import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { CLI } from '../helpers/server';
import { filesUnder } from '../helpers/files';
import { syntheticParakeetModel } from '../helpers/parakeet-model';
import { fixture, serve, startFixtureServer, type FixtureServer } from '../helpers/model-server';
import { tempDir } from '../helpers/temp';

// The built CLI with the real catalog. No test here reaches the internet: downloads go to a local mirror.
const DIRECT = { NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost', SPEECH_STUDIO_MODEL_MIRROR: '' };

describe('node dist/cli.js models', () => {
  let dataDir: string;
  let server: FixtureServer;

  before(async () => {
    dataDir = await tempDir('speech studio built cli ');
    server = await startFixtureServer();
  });
  after(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists the catalog with sizes and what is installed', async () => {
    const { code, stdout } = await runCli(['models', 'list', '--data-dir', dataDir], DIRECT);
    assert.equal(code, 0);
    assert.match(stdout, /whisper-large-v3-turbo-q5_0 +stt +mul +574\.0 MB +not-installed/);
    assert.match(stdout, /piper-de-de-thorsten-medium +tts-voice +de-DE +~63\.\d MB/);
  });

  it('imports a whisper file the catalog does not know as a custom model, offline', async () => {
    const custom = fixture(10_000, { ggml: true });
    const source = path.join(dataDir, 'my finetune.bin');
    await writeFile(source, custom.bytes);
    const { code, stdout, stderr } = await runCli(['models', 'import', source, '--data-dir', dataDir], DIRECT);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Installed custom:my finetune\.bin:/);
    assert.match(stderr, /^my finetune\.bin {2}copying {2}0 B \/ 10\.0 kB {2}0%$/m, 'the copy shows its progress');
    assert.ok((await readFile(path.join(dataDir, 'models', 'whisper', 'my finetune.bin'))).equals(custom.bytes));
    const listed = await runCli(['models', 'list', '--data-dir', dataDir], DIRECT);
    assert.match(listed.stdout, /Custom whisper models \(not in the catalog\):\n {2}my finetune\.bin/);
  });

  it('lists a Parakeet file placed by hand in models/parakeet/ under the custom Parakeet models', async () => {
    await mkdir(path.join(dataDir, 'models', 'parakeet'), { recursive: true });
    await copyFile(await syntheticParakeetModel(), path.join(dataDir, 'models', 'parakeet', 'ggml-parakeet-own.bin'));
    const listed = await runCli(['models', 'list', '--data-dir', dataDir], DIRECT);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /Custom Parakeet models \(not in the catalog\):\n {2}ggml-parakeet-own\.bin {2}\d/);
    assert.doesNotMatch(listed.stdout, /Custom whisper models[^]*ggml-parakeet-own\.bin[^]*Custom Parakeet/);
    await rm(path.join(dataDir, 'models', 'parakeet'), { recursive: true });
  });

  it('refuses to import a file that is not the catalog file, and installs nothing', async () => {
    const source = path.join(dataDir, 'ggml-tiny.bin');
    await writeFile(source, fixture(1000).bytes);
    const { code, stderr } = await runCli(['models', 'import', 'whisper-tiny', source, '--data-dir', dataDir], DIRECT);
    assert.equal(code, 1);
    assert.match(stderr, /is 1000 bytes, but the catalog's ggml-tiny\.bin is 77691713/);
    assert.ok(!(await filesUnder(path.join(dataDir, 'models'))).includes('whisper/ggml-tiny.bin'));
  });

  it('downloads from the --mirror and reports a file that does not match the catalog', async () => {
    const mirrored = '/huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.bin';
    server.route(mirrored, serve(fixture(1000).bytes));
    const { code, stderr } = await runCli(
      ['models', 'install', 'whisper-tiny', '--mirror', server.base, '--data-dir', dataDir],
      DIRECT,
    );
    assert.equal(code, 1);
    assert.match(stderr, /is 1000 bytes but the catalog lists 77691713/);
    assert.equal(server.requestsTo(mirrored).length, 1);
    assert.deepEqual(
      (await filesUnder(path.join(dataDir, 'models'))).filter(
        (f) => f.startsWith('.partial') || f.endsWith('ggml-tiny.bin'),
      ),
      [],
    );
  });

  it('stops a download on Ctrl+C with exit code 130 and deletes the partial file', async () => {
    const mirrored = '/huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-base.bin';
    server.route(mirrored, (_req, res) => {
      res.writeHead(200, { 'Content-Length': 147951465 });
      res.write(Buffer.alloc(64 * 1024));
    });
    const child = spawn(
      process.execPath,
      [CLI, 'models', 'install', 'whisper-base', '--mirror', server.base, '--data-dir', dataDir],
      {
        env: { ...process.env, ...DIRECT },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    let interrupted = false;
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('ggml-base.bin') && !interrupted) interrupted = child.kill('SIGINT');
    });
    assert.equal(await exited, 130, stderr);
    assert.match(stderr, /Cancelled; the partial download was deleted/);
    assert.deepEqual(
      (await filesUnder(path.join(dataDir, 'models'))).filter((f) => f.startsWith('.partial')),
      [],
    );
  });
});
