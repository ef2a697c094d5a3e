import assert from 'node:assert/strict';
import { cp, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nativeFix } from '../../src/engine/native-parts';
import { voiceIdFor } from '../../src/voices/voice-id';
import { uploadMultipart } from '../helpers/multipart';
import {
  isTerminal,
  postJson,
  PROJECT_ROOT,
  startTestServer,
  tempDir,
  waitForJob,
  type TestServer,
} from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId } from '../helpers/voices';

/** Copied rather than linked, so that their own requires resolve inside the broken install. */
const LOADERS = new Set(['@fugood/whisper.node', 'sherpa-onnx-node']);
const BROKEN = new Set([
  `@fugood/node-whisper-${process.platform}-${process.arch}`,
  `sherpa-onnx-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`,
]);

/**
 * An install whose native builds cannot load, as on a machine with too old a C library: the engine bundle
 * beside a node_modules in which the platform builds of whisper.cpp and sherpa-onnx are not loadable
 * binaries (dlopen refuses them), and every other package is the real one.
 */
async function installWithBrokenNativeParts(): Promise<string> {
  const root = await tempDir();
  await cp(path.join(PROJECT_ROOT, 'dist'), path.join(root, 'dist'), { recursive: true });
  const source = path.join(PROJECT_ROOT, 'node_modules');
  for (const entry of await readdir(source)) {
    const names = entry.startsWith('@')
      ? (await readdir(path.join(source, entry))).map((name) => `${entry}/${name}`)
      : [entry];
    for (const name of names) {
      const target = path.join(root, 'node_modules', name);
      await mkdir(path.dirname(target), { recursive: true });
      if (!BROKEN.has(name) && !LOADERS.has(name)) {
        await symlink(path.join(source, name), target);
        continue;
      }
      await cp(path.join(source, name), target, { recursive: true, dereference: true });
      if (LOADERS.has(name)) continue;
      for (const file of await readdir(target)) {
        if (/\.(node|so(\.\d+)*|dylib|dll)$/.test(file))
          await writeFile(path.join(target, file), 'not a shared library');
      }
    }
  }
  return root;
}

describe('native parts that cannot load on this machine', () => {
  let install: string;
  let t: TestServer;
  before(async () => {
    install = await installWithBrokenNativeParts();
    t = await startTestServer({ engineWorkerPath: path.join(install, 'dist', 'engine-worker.js') });
    await mkdir(path.join(t.dataDir, 'models', 'whisper'), { recursive: true });
    await symlink(
      testModel('whisper/ggml-synthetic-random.bin'),
      path.join(t.dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
    );
  });
  after(async () => {
    await t.dispose();
    await rm(install, { recursive: true, force: true });
  });

  it("fail speech-to-text with one sentence naming the part, the loader's reason and the fix", async () => {
    const created = await uploadMultipart(
      `${t.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
    );
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'failed');
    assert.match(
      job.error,
      /^Speech-to-text cannot run on this machine: the whisper\.cpp library did not load \(.+\); /,
    );
    assert.ok(job.error.endsWith(`${nativeFix('whisper.cpp')}.`), job.error);
  });

  it('fail a neural voice the same way, while the built-in voices keep working', async () => {
    const dir = path.join(t.dataDir, 'models', 'tts', 'piper-en-us-lessac-medium');
    await mkdir(dir, { recursive: true });
    await symlink(testModel('sherpa-synthetic/vits-piper/model.onnx'), path.join(dir, 'en_US-lessac-medium.onnx'));
    await symlink(testModel('sherpa-synthetic/vits-piper/tokens.txt'), path.join(dir, 'tokens.txt'));
    await writeFile(path.join(dir, 'en_US-lessac-medium.onnx.json'), '{}');
    const neural = await postJson(`${t.base}/tts/jobs`, {
      voiceId: voiceIdFor('sherpa-onnx', 'piper-en-us-lessac-medium'),
      text: 'Hello.',
    });
    const failed = await waitForJob(t.base, neural.json().id, isTerminal, 60_000);
    assert.equal(failed.status, 'failed');
    assert.match(
      failed.error,
      /^Neural voices and speaker diarization cannot run on this machine: the sherpa-onnx library did not load \(.+\); /,
    );

    const builtin = await postJson(`${t.base}/tts/jobs`, {
      voiceId: await englishVoiceId(t.base),
      text: 'The built-in voices still speak.',
    });
    const spoken = await waitForJob(t.base, builtin.json().id, isTerminal, 60_000);
    assert.equal(spoken.status, 'succeeded', spoken.error);
  });

  it('say what fixes each platform', () => {
    assert.match(nativeFix('whisper.cpp', 'win32', 'x64'), /Visual C\+\+ Redistributable/);
    assert.match(nativeFix('whisper.cpp', 'linux', 'x64'), /glibc 2\.28/);
    assert.match(nativeFix('sherpa-onnx', 'darwin', 'arm64'), /macOS 11/);
    assert.match(nativeFix('sherpa-onnx', 'win32', 'arm64'), /no build for Windows on Arm/);
  });
});
