import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Catalog, CatalogEntry, CatalogFile } from '../../src/models/catalog';
import { readManifest } from '../../src/models/install-manifest';
import { listWhisperModels } from '../../src/models/installed-models';
import { ModelError } from '../../src/models/model-error';
import { createModelManager, type InstallProgress, type ModelManager, type ModelManagerOptions } from '../../src/models/model-manager';
import { filesUnder } from '../helpers/files';
import { syntheticParakeetModel } from '../helpers/parakeet-model';
import { dropMidFile, fixture, holdAfter, serve, stallAfter, startFixtureServer, status, type Fixture, type FixtureServer } from '../helpers/model-server';
import { tempDir } from '../helpers/temp';

const tiny = fixture(64 * 1024, { ggml: true });
const segmentation = fixture(20_000);
const embedding = fixture(30_000);
const voice = { model: fixture(50_000), config: fixture(2_000), tokens: fixture(500) };

const file = (name: string, target: string, data: Fixture, extra: Partial<CatalogFile> = {}): CatalogFile => ({
  url: `https://models.test/${name}`,
  target,
  size: data.bytes.length,
  sha256: data.sha256,
  checksum: 'verify',
  source: 'test fixture',
  ...extra,
});
const unverified = { size: null, sha256: null, checksum: 'record-on-first-download' } as const;
const entry = (id: string, kind: CatalogEntry['kind'], files: CatalogFile[], extra: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id,
  kind,
  name: id,
  languages: ['en'],
  license: 'MIT',
  files,
  ...extra,
});

const catalog: Catalog = {
  version: 1,
  models: [
    entry('whisper-test', 'stt', [file('ggml-test.bin', 'whisper/ggml-test.bin', tiny)]),
    entry('embedding-test', 'speaker-embedding', [file('embedding.onnx', 'diarization/embedding.onnx', embedding)]),
    entry('segmentation-test', 'diarization-segmentation', [file('segmentation.onnx', 'diarization/segmentation.onnx', segmentation)], {
      requires: ['embedding-test'],
    }),
    entry('voice-test', 'tts-voice', [
      file('voice.onnx', 'tts/voice-test/voice.onnx', voice.model, unverified),
      file('voice.onnx.json', 'tts/voice-test/voice.onnx.json', voice.config, unverified),
      file('tokens.txt', 'tts/voice-test/tokens.txt', voice.tokens, unverified),
    ]),
  ],
};

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<ModelError> {
  const error = await promise.then(
    () => assert.fail(`expected ${code}, but it resolved`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

describe('model manager', () => {
  let server: FixtureServer;
  let dataDir: string;
  let manager: ModelManager;
  const newManager = (extra: Partial<ModelManagerOptions> = {}): Promise<ModelManager> =>
    createModelManager({ dataDir, catalog, mirror: server.base, env: {}, retries: 0, retryDelayMs: 1, progressIntervalMs: 0, ...extra });
  const route = (name: string) => `/models.test/${name}`;

  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());
  beforeEach(async () => {
    dataDir = await tempDir('speech studio models ');
    server.requests.length = 0;
    server.route(route('ggml-test.bin'), serve(tiny.bytes));
    server.route(route('embedding.onnx'), serve(embedding.bytes));
    server.route(route('segmentation.onnx'), serve(segmentation.bytes));
    server.route(route('voice.onnx'), serve(voice.model.bytes));
    server.route(route('voice.onnx.json'), serve(voice.config.bytes));
    server.route(route('tokens.txt'), serve(voice.tokens.bytes));
    manager = await newManager();
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('installs a whisper model through the mirror into models/whisper, verified, on a path with spaces', async () => {
    const progress: InstallProgress[] = [];
    const changed: string[] = [];
    manager.onDidChange((id) => changed.push(id));
    const result = await manager.install('whisper-test', { onProgress: (p) => progress.push(p) });
    assert.equal(result.alreadyInstalled, false);
    assert.deepEqual(result.model.files, [{ target: 'whisper/ggml-test.bin', bytes: tiny.bytes.length, sha256: tiny.sha256, checksum: 'verified' }]);
    assert.ok((await readFile(path.join(dataDir, 'models', 'whisper', 'ggml-test.bin'))).equals(tiny.bytes));
    assert.deepEqual(await filesUnder(dataDir), ['models/installed.json', 'models/whisper/ggml-test.bin']);
    assert.deepEqual((await listWhisperModels(dataDir)).map((m) => m.name), ['ggml-test.bin'], 'the server sees it at once');
    assert.equal(server.requests[0].path, '/models.test/ggml-test.bin');
    assert.equal(progress.at(-1)?.modelId, 'whisper-test');
    assert.deepEqual(changed, ['whisper-test']);
    const listed = (await manager.list()).models.find((m) => m.entry.id === 'whisper-test');
    assert.equal(listed?.status, 'installed');
    assert.equal((await manager.install('whisper-test')).alreadyInstalled, true);
  });

  it('downloads once when the same model is installed twice at the same time', async () => {
    const other = await newManager();
    const seen: number[] = [];
    const [first, second] = await Promise.all([
      manager.install('whisper-test', { onProgress: () => seen.push(1) }),
      other.install('whisper-test', { onProgress: () => seen.push(2) }),
    ]);
    assert.equal(server.requestsTo(route('ggml-test.bin')).length, 1);
    assert.deepEqual(first.model, second.model);
    assert.ok(seen.includes(1) && seen.includes(2), 'both callers saw progress');
  });

  it('keeps a shared download going when one of its callers cancels', async () => {
    const held = holdAfter(tiny.bytes, 1024);
    server.route(route('ggml-test.bin'), held);
    const controller = new AbortController();
    const leaving = manager.install('whisper-test', { signal: controller.signal, onProgress: (p) => p.bytes > 0 && controller.abort() });
    const staying = manager.install('whisper-test');
    await rejectsWith(leaving, 'CANCELLED');
    held.release();
    assert.equal((await staying).model.files[0].sha256, tiny.sha256);
  });

  it('cancelling a slow download leaves the data directory clean', async () => {
    server.route(route('ggml-test.bin'), stallAfter(tiny.bytes, 1024));
    const controller = new AbortController();
    await rejectsWith(manager.install('whisper-test', { signal: controller.signal, onProgress: (p) => p.bytes > 0 && controller.abort() }), 'CANCELLED');
    assert.deepEqual(await filesUnder(dataDir), []);
  });

  it('installs nothing when a checksum does not match, or the server answers 404', async () => {
    server.route(route('ggml-test.bin'), serve(fixture(tiny.bytes.length).bytes));
    await rejectsWith(manager.install('whisper-test'), 'CHECKSUM_MISMATCH');
    assert.deepEqual(await filesUnder(dataDir), []);
    server.route(route('ggml-test.bin'), status(404));
    const error = await rejectsWith(manager.install('whisper-test'), 'HTTP_ERROR');
    assert.match(error.message, /404/);
    assert.deepEqual(await filesUnder(dataDir), []);
  });

  it('installs a multi-file voice all at once, recording the hashes it could not verify', async () => {
    const result = await manager.install('voice-test');
    assert.deepEqual(
      result.model.files.map((f) => [f.target, f.checksum, f.sha256]),
      [
        ['tts/voice-test/voice.onnx', 'recorded', voice.model.sha256],
        ['tts/voice-test/voice.onnx.json', 'recorded', voice.config.sha256],
        ['tts/voice-test/tokens.txt', 'recorded', voice.tokens.sha256],
      ],
    );
    assert.equal((await readManifest(dataDir)).models['voice-test'].files[2].sha256, voice.tokens.sha256);
  });

  it('installs none of a voice when one of its files fails', async () => {
    server.route(route('tokens.txt'), status(500));
    await rejectsWith(manager.install('voice-test'), 'HTTP_ERROR');
    assert.deepEqual(await filesUnder(dataDir), []);
  });

  it('installs what a model requires first: segmentation brings its embedding model', async () => {
    const result = await manager.install('segmentation-test');
    assert.deepEqual(result.dependencies.map((d) => d.id), ['embedding-test']);
    assert.deepEqual(await filesUnder(path.join(dataDir, 'models', 'diarization')), ['embedding.onnx', 'segmentation.onnx']);
  });

  it('keeps a dropped download for the next install, which resumes it', async () => {
    const dropping = dropMidFile(tiny.bytes, 8192);
    server.route(route('ggml-test.bin'), dropping);
    const error = await rejectsWith(manager.install('whisper-test', { onProgress: (p) => p.bytes >= 8192 && dropping.drop() }), 'NETWORK');
    assert.match(error.message, /install whisper-test again to resume/);
    assert.equal((await manager.list()).models.find((m) => m.entry.id === 'whisper-test')?.status, 'partial');
    await manager.install('whisper-test');
    assert.match(server.requestsTo(route('ggml-test.bin'))[1].headers.range ?? '', /^bytes=\d+-$/);
    assert.deepEqual(await filesUnder(dataDir), ['models/installed.json', 'models/whisper/ggml-test.bin']);
  });

  it('refuses to start when the disk has no room, and says how much is needed', async () => {
    const full = await newManager({ freeBytes: async () => 1000 });
    const error = await rejectsWith(full.install('whisper-test'), 'NO_SPACE');
    assert.match(error.message, /needs 0\.1 MB, 0\.0 MB are free/);
    assert.deepEqual(await filesUnder(dataDir), []);
  });

  it('refuses while another live process holds the install lock', async () => {
    await mkdir(path.join(dataDir, 'models', '.partial'), { recursive: true });
    await writeFile(path.join(dataDir, 'models', '.partial', 'whisper-test.lock'), String(process.ppid));
    await rejectsWith(manager.install('whisper-test'), 'ALREADY_INSTALLING');
  });

  it('removes a model, its empty folder and its manifest entry', async () => {
    await manager.install('voice-test');
    const { removed } = await manager.remove('voice-test');
    assert.equal(removed.length, 3);
    assert.deepEqual(await filesUnder(dataDir), ['models/installed.json']);
    assert.deepEqual((await readManifest(dataDir)).models, {});
    await rejectsWith(manager.remove('no-such-model'), 'UNKNOWN_MODEL');
  });

  it('verifies installed files, reports damage, and adopts files copied into place by hand', async () => {
    await manager.install('whisper-test');
    assert.deepEqual((await manager.verify()).map((r) => [r.id, r.status]), [['whisper-test', 'ok']]);
    await writeFile(path.join(dataDir, 'models', 'whisper', 'ggml-test.bin'), 'damaged');
    const [damaged] = await manager.verify();
    assert.equal(damaged.status, 'damaged');
    assert.equal(damaged.files[0].status, 'mismatch');

    await mkdir(path.join(dataDir, 'models', 'diarization'), { recursive: true });
    await writeFile(path.join(dataDir, 'models', 'diarization', 'embedding.onnx'), embedding.bytes);
    assert.equal((await manager.list()).models.find((m) => m.entry.id === 'embedding-test')?.status, 'unverified');
    const adopted = (await manager.verify()).find((r) => r.id === 'embedding-test');
    assert.equal(adopted?.status, 'adopted');
    assert.equal((await manager.list()).models.find((m) => m.entry.id === 'embedding-test')?.status, 'installed');
  });

  it('lists hand-placed Parakeet files in models/parakeet/ as custom models, like whisper files, but not the catalog\'s', async () => {
    const parakeet = await readFile(await syntheticParakeetModel());
    const catalogued = { bytes: parakeet, sha256: createHash('sha256').update(parakeet).digest('hex') };
    const withParakeet: Catalog = {
      ...catalog,
      models: [...catalog.models, entry('parakeet-test', 'stt', [file('ggml-parakeet-test.bin', 'parakeet/ggml-parakeet-test.bin', catalogued)])],
    };
    manager = await newManager({ catalog: withParakeet });
    const models = path.join(dataDir, 'models');
    await mkdir(path.join(models, 'parakeet'), { recursive: true });
    await mkdir(path.join(models, 'whisper'), { recursive: true });
    await writeFile(path.join(models, 'parakeet', 'ggml-parakeet-tdt-0.6b-v2-mine.bin'), parakeet);
    await writeFile(path.join(models, 'parakeet', 'ggml-parakeet-test.bin'), parakeet);
    await writeFile(path.join(models, 'parakeet', 'notes.txt'), 'not a model');
    // A whisper file in the Parakeet folder is not a Parakeet model, and the server does not use it either.
    await writeFile(path.join(models, 'parakeet', 'stray-whisper.bin'), tiny.bytes);
    await writeFile(path.join(models, 'whisper', 'my finetune.bin'), tiny.bytes);

    const listed = await manager.list();
    assert.deepEqual(
      listed.customStt.map((m) => [m.name, m.engine, m.bytes]).sort(),
      [['ggml-parakeet-tdt-0.6b-v2-mine.bin', 'parakeet', parakeet.length], ['my finetune.bin', 'whisper', tiny.bytes.length]],
    );
    assert.deepEqual(listed.customStt.find((m) => m.engine === 'parakeet')?.languages, ['en'], 'v2 is English-only, read from its name');
    assert.equal(listed.models.find((m) => m.entry.id === 'parakeet-test')?.status, 'unverified');
  });

  describe('import', () => {
    let downloads: string;
    beforeEach(async () => {
      downloads = path.join(dataDir, 'my downloads');
      await mkdir(downloads);
    });

    it('imports a file the user has after checking it against the catalog', async () => {
      await writeFile(path.join(downloads, 'ggml-test.bin'), tiny.bytes);
      const result = await manager.importModel('whisper-test', path.join(downloads, 'ggml-test.bin'));
      assert.equal(result.model.source, 'import');
      assert.equal(result.model.files[0].checksum, 'verified');
      assert.equal(server.requests.length, 0, 'offline: nothing downloaded');
      assert.ok((await readFile(path.join(dataDir, 'models', 'whisper', 'ggml-test.bin'))).equals(tiny.bytes));
      assert.ok((await readFile(path.join(downloads, 'ggml-test.bin'))).equals(tiny.bytes), 'the user keeps their file');
    });

    it('refuses a different file and installs nothing', async () => {
      await writeFile(path.join(downloads, 'ggml-test.bin'), fixture(tiny.bytes.length).bytes);
      await rejectsWith(manager.importModel('whisper-test', path.join(downloads, 'ggml-test.bin')), 'CHECKSUM_MISMATCH');
      assert.deepEqual(await filesUnder(path.join(dataDir, 'models')), []);
      // The same through importFile, which copies before it knows the entry: found by name, refused, nothing left.
      await rejectsWith(manager.importFile(path.join(downloads, 'ggml-test.bin')), 'CHECKSUM_MISMATCH');
      assert.deepEqual(await filesUnder(path.join(dataDir, 'models')), []);
    });

    it('refuses a file of the wrong size before copying it', async () => {
      await writeFile(path.join(downloads, 'ggml-test.bin'), tiny.bytes.subarray(1));
      const error = await rejectsWith(manager.importModel('whisper-test', path.join(downloads, 'ggml-test.bin')), 'SIZE_MISMATCH');
      assert.match(error.message, /Nothing was installed/);
      assert.deepEqual(await filesUnder(path.join(dataDir, 'models')), []);
    });

    it('installs a copy: a later edit or deletion of the user\'s file leaves the installed model as it was', async () => {
      const mine = path.join(downloads, 'ggml-test.bin');
      await writeFile(mine, tiny.bytes);
      for (const imported of [() => manager.importModel('whisper-test', mine), () => manager.importFile(mine)]) {
        await manager.remove('whisper-test');
        await writeFile(mine, tiny.bytes);
        await imported();
        const installed = path.join(dataDir, 'models', 'whisper', 'ggml-test.bin');
        assert.equal((await stat(installed)).nlink, 1, 'not a hard link to the user\'s file');
        // Rewriting the user's file in place would change a hard-linked model too.
        const handle = await open(mine, 'r+');
        await handle.write(Buffer.from('edited'), 0, 6, 100);
        await handle.close();
        assert.ok((await readFile(installed)).equals(tiny.bytes));
        await rm(mine);
        assert.ok((await readFile(installed)).equals(tiny.bytes));
        assert.equal((await manager.verify()).find((r) => r.id === 'whisper-test')?.status, 'ok');
      }
    });

    it('reports the copy\'s progress, and Cancel part-way leaves nothing behind', async () => {
      const big = fixture(5 * (1 << 20) + 123, { ggml: true });
      await writeFile(path.join(downloads, 'big finetune.bin'), big.bytes);
      const progress: InstallProgress[] = [];
      const result = await manager.importFile(path.join(downloads, 'big finetune.bin'), { onProgress: (p) => progress.push(p) });
      assert.equal(result.model.files[0].sha256, big.sha256);
      assert.ok(progress.length >= 3, `${progress.length} progress reports`);
      assert.ok(progress.every((p) => p.phase === 'copying' && p.totalBytes === big.bytes.length));
      assert.equal(progress.at(-1)?.bytes, big.bytes.length);
      assert.equal(progress.at(-1)?.percent, 100);
      await manager.remove(result.id);

      const controller = new AbortController();
      const seen: number[] = [];
      const cancelled = manager.importFile(path.join(downloads, 'big finetune.bin'), {
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p.bytes);
          if (p.bytes > 0) controller.abort();
        },
      });
      await rejectsWith(cancelled, 'CANCELLED');
      assert.ok(seen.at(-1)! < big.bytes.length, 'cancelled before the end of the file');
      assert.deepEqual(await filesUnder(path.join(dataDir, 'models')), ['installed.json']);
      assert.deepEqual((await manager.list()).customStt, []);
      assert.ok((await readFile(path.join(downloads, 'big finetune.bin'))).equals(big.bytes), 'the user keeps their file');
    });

    it('refuses an import that does not fit on the disk before copying', async () => {
      await writeFile(path.join(downloads, 'ggml-test.bin'), tiny.bytes);
      const cramped = await newManager({ freeBytes: async () => 1000 });
      await rejectsWith(cramped.importFile(path.join(downloads, 'ggml-test.bin')), 'NO_SPACE');
      await rejectsWith(cramped.importModel('whisper-test', path.join(downloads, 'ggml-test.bin')), 'NO_SPACE');
      assert.deepEqual(await filesUnder(path.join(dataDir, 'models')), []);
    });

    it('imports a multi-file voice from a folder named by the upstream file names', async () => {
      await writeFile(path.join(downloads, 'voice.onnx'), voice.model.bytes);
      await writeFile(path.join(downloads, 'voice.onnx.json'), voice.config.bytes);
      await rejectsWith(manager.importModel('voice-test', downloads), 'IMPORT_FAILED');
      await writeFile(path.join(downloads, 'tokens.txt'), voice.tokens.bytes);
      const result = await manager.importModel('voice-test', downloads);
      assert.equal(result.model.files.length, 3);
    });

    it('recognises a catalog file by its checksum, and keeps any other whisper file as a custom model', async () => {
      await writeFile(path.join(downloads, 'renamed.bin'), tiny.bytes);
      assert.equal((await manager.importFile(path.join(downloads, 'renamed.bin'))).id, 'whisper-test');
      const custom = fixture(4096, { ggml: true });
      await writeFile(path.join(downloads, 'my finetune.bin'), custom.bytes);
      const result = await manager.importFile(path.join(downloads, 'my finetune.bin'));
      assert.equal(result.id, 'custom:my finetune.bin');
      assert.equal(result.model.files[0].sha256, custom.sha256);
      assert.deepEqual((await manager.list()).customStt.map((m) => m.name), ['my finetune.bin']);
      await copyFile(path.join(downloads, 'my finetune.bin'), path.join(downloads, 'notes.txt'));
      await writeFile(path.join(downloads, 'notes.txt'), 'not a model');
      await rejectsWith(manager.importFile(path.join(downloads, 'notes.txt')), 'IMPORT_FAILED');
    });
  });
});
