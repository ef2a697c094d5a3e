import assert from 'node:assert/strict';
import { copyFile, mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import { TaskYieldedError, type ProgressReporter } from '../../src/engine-api/protocol';
import { runSpeechRegionsTask } from '../../src/engine/stt/run-speech-regions';
import { EngineHost } from '../../src/jobs/engine-host';
import { findSpeechRegions, speechRegionsCacheDir } from '../../src/jobs/speech-regions';
import { cachePrunerFor, cacheLimits, releaseCachePruner } from '../../src/util/data-dir-caches';
import { silentLogger } from '../../src/util/log';
import { ENGINE_WORKER, waitFor } from '../helpers/server';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { configureTestEngine } from '../helpers/engine-config';

// Engine code runs in this process too: configured from the environment, as the host configures its engine processes.
configureTestEngine({});

/** jfk.wav: 11 s, "And so my fellow Americans…" from about 0.3 s to about 10.6 s, with pauses between phrases. */
const JFK_SECONDS = 11;

describe('the speech-regions engine task (Silero VAD in the engine process) and its cache', () => {
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: engineConfigFromEnvironment(process.env, { sttThreads: 2 }),
  });
  let dir = '';
  let media = '';
  const vad = testModel('vad', 'ggml-silero-v6.2.0.bin');

  before(async () => {
    dir = await tempDir('speech-studio-regions-');
    media = path.join(dir, 'jfk.wav');
    await copyFile(testModel('audio', 'jfk.wav'), media);
  });
  after(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the stretches of speech of jfk.wav in order, inside the file, and reports its progress', async () => {
    const phases = new Set<string>();
    const found = await findSpeechRegions(host, path.join(dir, 'data'), media, vad, {
      onProgress: (phase) => phases.add(phase),
    });
    assert.equal(found.cached, false);
    assert.ok(Math.abs(found.durationSeconds - JFK_SECONDS) < 0.1, `duration ${found.durationSeconds}`);
    assert.ok(
      found.regions.length >= 2,
      `the pauses between phrases split the speech: ${JSON.stringify(found.regions)}`,
    );
    const first = found.regions[0];
    const last = found.regions.at(-1)!;
    assert.ok(first.start > 0.05 && first.start < 0.8, `speech starts after the lead-in silence: ${first.start}`);
    assert.ok(last.end > 9.5 && last.end <= found.durationSeconds, `speech ends near the end: ${last.end}`);
    for (const [i, region] of found.regions.entries()) {
      assert.ok(region.end > region.start, `region ${i} has a length`);
      if (i > 0) assert.ok(region.start >= found.regions[i - 1].end, `region ${i} starts after the one before ends`);
    }
    assert.ok(phases.has('decoding') && phases.has('detecting_speech'), [...phases].join(' '));
  });

  it("stops with TaskYieldedError between pieces of VAD when asked to yield, in the engine's own code", async () => {
    const yielding = new AbortController();
    const phases: string[] = [];
    const report: ProgressReporter = (phase) => {
      phases.push(phase);
      if (phase === 'detecting_speech') yielding.abort();
    };
    await assert.rejects(
      runSpeechRegionsTask({ kind: 'speech-regions', inputPath: media, vadModelPath: vad }, report, yielding.signal),
      TaskYieldedError,
    );
    assert.ok(phases.includes('detecting_speech'), 'it was asked after decoding');
    const done = await runSpeechRegionsTask(
      { kind: 'speech-regions', inputPath: media, vadModelPath: vad },
      () => undefined,
      new AbortController().signal,
    );
    assert.ok(done.result.regions.length >= 2, 'not asked to yield, it runs to the end');
  });

  it('stops with TaskYieldedError while decoding when asked to yield then, before any VAD', async () => {
    const yielding = new AbortController();
    const phases: string[] = [];
    const report: ProgressReporter = (phase, progress) => {
      phases.push(phase);
      if (phase === 'decoding' && progress > 0) yielding.abort();
    };
    await assert.rejects(
      runSpeechRegionsTask({ kind: 'speech-regions', inputPath: media, vadModelPath: vad }, report, yielding.signal),
      TaskYieldedError,
    );
    assert.ok(!phases.includes('detecting_speech'), phases.join(' '));
  });

  it('answers from the cache while the file is unchanged, and analyses again when it changes', async () => {
    const data = path.join(dir, 'data');
    const again = await findSpeechRegions(host, data, media, vad);
    assert.equal(again.cached, true);
    const first = await findSpeechRegions(host, path.join(dir, 'other-data'), media, vad);
    assert.deepEqual(again.regions, first.regions, "the cached answer is the engine's answer");

    await utimes(media, new Date(), new Date(Date.now() + 5_000));
    const touched = await findSpeechRegions(host, data, media, vad);
    assert.equal(touched.cached, false, 'a new modification time is a new analysis');
    assert.deepEqual(touched.regions, first.regions);
    assert.equal(
      (await readdir(speechRegionsCacheDir(data))).filter((name) => name.endsWith('.json')).length,
      1,
      'one entry a file',
    );
  });

  it('records each use of a cached entry, and a new analysis has the cache pruned to its limits', async () => {
    const data = path.join(dir, 'data');
    const [entry] = (await readdir(speechRegionsCacheDir(data))).filter((name) => name.endsWith('.json'));
    const file = path.join(speechRegionsCacheDir(data), entry);
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    await utimes(file, longAgo, longAgo);
    assert.equal((await findSpeechRegions(host, data, media, vad)).cached, true);
    assert.ok(Date.now() - (await stat(file)).mtimeMs < 60_000, 'used just now');

    const fresh = path.join(dir, 'data-pruned');
    const stale = path.join(speechRegionsCacheDir(fresh), 'stale.json');
    await mkdir(path.dirname(stale), { recursive: true });
    await writeFile(stale, '{}');
    await utimes(stale, longAgo, longAgo);
    cachePrunerFor(fresh).configure(cacheLimits({ speechRegions: { maxDays: 10 } }));
    try {
      assert.equal((await findSpeechRegions(host, fresh, media, vad)).cached, false);
      await waitFor(
        'the stale entry to be pruned',
        () =>
          stat(stale).then(
            () => true,
            () => false,
          ),
        (there) => !there,
        5000,
      );
      assert.deepEqual((await readdir(speechRegionsCacheDir(fresh))).length, 1, 'the entry just written is kept');
    } finally {
      await releaseCachePruner(fresh);
    }
  });

  it('a damaged cache entry is analysed again, not trusted', async () => {
    const data = path.join(dir, 'data');
    const [entry] = (await readdir(speechRegionsCacheDir(data))).filter((name) => name.endsWith('.json'));
    await writeFile(path.join(speechRegionsCacheDir(data), entry), '{"key":');
    const found = await findSpeechRegions(host, data, media, vad);
    assert.equal(found.cached, false);
    assert.ok(found.regions.length >= 2);
  });

  it("fails with the engine's sentence for a file that is not media", async () => {
    const text = path.join(dir, 'notes.wav');
    await writeFile(text, 'not audio at all');
    await assert.rejects(
      findSpeechRegions(host, path.join(dir, 'data'), text, vad),
      /not a media file|no audio|could not|cannot/i,
    );
  });
});
