import assert from 'node:assert/strict';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CachePruner,
  cacheLimits,
  configuredCacheLimits,
  DEFAULT_CACHE_LIMITS,
  waveformsDir,
} from '../../src/util/data-dir-caches';
import { pruneCache } from '../../src/util/prune-cache';
import { waitFor } from '../helpers/server';
import { tempDir } from '../helpers/temp';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** Writes `bytes` bytes at `file`, last used `ago` milliseconds ago. */
async function entry(file: string, bytes: number, ago: number): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, Buffer.alloc(bytes));
  const at = new Date(Date.now() - ago);
  await utimes(file, at, at);
  return file;
}

const namesIn = async (dir: string): Promise<string[]> => (await readdir(dir)).sort();

describe('pruneCache', () => {
  let root: string;
  let dir: string;
  let n = 0;
  before(async () => (root = await tempDir('prune cache ')));
  after(() => rm(root, { recursive: true, force: true }));
  const fresh = async (): Promise<string> => {
    dir = path.join(root, `cache-${n++}`);
    await mkdir(dir);
    return dir;
  };

  it('removes what was unused longer than the age cap, and nothing else while the folder fits', async () => {
    await fresh();
    await entry(path.join(dir, 'old.peaks'), 10, 31 * DAY);
    await entry(path.join(dir, 'recent.peaks'), 10, 29 * DAY);
    const report = await pruneCache(dir, { maxMegabytes: 1, maxDays: 30 });
    assert.deepEqual(await namesIn(dir), ['recent.peaks']);
    assert.deepEqual(report.removed, [path.join(dir, 'old.peaks')]);
    assert.equal(report.removedBytes, 10);
    assert.equal(report.keptBytes, 10);
  });

  it('over the size cap, removes the least recently used first until the folder fits', async () => {
    await fresh();
    // 400 kB each, 1 MB cap: of four, the two used longest ago go.
    for (const [name, ago] of [
      ['a', 4],
      ['b', 1],
      ['c', 3],
      ['d', 2],
    ] as const)
      await entry(path.join(dir, name), 400_000, ago * DAY);
    const report = await pruneCache(dir, { maxMegabytes: 1, maxDays: 90 });
    assert.deepEqual(await namesIn(dir), ['b', 'd']);
    assert.deepEqual(
      report.removed.map((file) => path.basename(file)),
      ['a', 'c'],
    );
    assert.equal(report.keptBytes, 800_000);
  });

  it('never removes what was used in the last minutes, even over the cap: it may be in use', async () => {
    await fresh();
    await entry(path.join(dir, 'in-use'), 600_000, 2 * MINUTE);
    await entry(path.join(dir, 'just-written'), 600_000, 0);
    await entry(path.join(dir, 'older'), 600_000, 20 * MINUTE);
    const report = await pruneCache(dir, { maxMegabytes: 0.5, maxDays: 0 });
    assert.deepEqual(await namesIn(dir), ['in-use', 'just-written']);
    assert.equal(report.keptBytes, 1_200_000);
  });

  it('leaves a folder alone while a writer is at work in it, and clears what a dead writer left', async () => {
    await fresh();
    await entry(path.join(dir, 'old.json'), 10, 100 * DAY);
    await entry(path.join(dir, 'x.json.123.partial'), 10, MINUTE);
    let report = await pruneCache(dir, { maxMegabytes: 1, maxDays: 30 });
    assert.equal(report.busy, true);
    assert.deepEqual(await namesIn(dir), ['old.json', 'x.json.123.partial']);

    await entry(path.join(dir, 'x.json.123.partial'), 10, 2 * DAY);
    await entry(path.join(dir, '.export-dead', 'p.wav'), 10, 3 * DAY);
    const at = new Date(Date.now() - 3 * DAY);
    await utimes(path.join(dir, '.export-dead'), at, at);
    report = await pruneCache(dir, { maxMegabytes: 1, maxDays: 30 });
    assert.equal(report.busy, false);
    assert.deepEqual(await namesIn(dir), []);
  });

  it('measures a folder entry by all it holds, last used when its newest file was', async () => {
    await fresh();
    await entry(path.join(dir, 'copy', 'one'), 300_000, 40 * DAY);
    await entry(path.join(dir, 'copy', 'two'), 300_000, 5 * DAY);
    const old = new Date(Date.now() - 40 * DAY);
    await utimes(path.join(dir, 'copy'), old, old);
    assert.deepEqual((await pruneCache(dir, { maxMegabytes: 1, maxDays: 30 })).removed, [], 'used 5 days ago');
    assert.deepEqual(
      (await pruneCache(dir, { maxMegabytes: 0.5, maxDays: 30 })).removed,
      [path.join(dir, 'copy')],
      '600 kB over a 500 kB cap',
    );
  });

  it('takes only the entries that belong to the cache, and a missing folder as empty', async () => {
    await fresh();
    await entry(path.join(dir, 'jobs.json'), 10, 400 * DAY);
    await entry(path.join(dir, 'jobs.json.damaged-1700000000000'), 10, 400 * DAY);
    await pruneCache(dir, { maxMegabytes: 1, maxDays: 90 }, { belongs: (name) => name.includes('.damaged-') });
    assert.deepEqual(await namesIn(dir), ['jobs.json']);
    assert.deepEqual(await pruneCache(path.join(dir, 'absent'), { maxMegabytes: 1, maxDays: 1 }), {
      removed: [],
      removedBytes: 0,
      keptBytes: 0,
      busy: false,
    });
  });
});

describe('cache limits', () => {
  it('applies overrides over the defaults and refuses what is not a limit', () => {
    assert.deepEqual(cacheLimits({ audiobook: { maxMegabytes: 100 } }).audiobook, {
      maxMegabytes: 100,
      maxDays: DEFAULT_CACHE_LIMITS.audiobook.maxDays,
    });
    assert.deepEqual(cacheLimits().waveforms, DEFAULT_CACHE_LIMITS.waveforms);
    assert.throws(() => cacheLimits({ thumbnails: {} } as never), /Expected a cache name .*got "thumbnails"/);
    assert.throws(() => cacheLimits({ waveforms: { maxDays: -1 } }), /waveforms\.maxDays, got -1/);
    assert.throws(() => cacheLimits({ waveforms: { maxSize: 1 } } as never), /got "maxSize"/);
  });

  it('reads SPEECH_STUDIO_CACHE_LIMITS under the server options, and warns about a broken one', () => {
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (m: string) => warnings.push(m), error: () => undefined };
    const env = { SPEECH_STUDIO_CACHE_LIMITS: '{"waveforms":{"maxMegabytes":10,"maxDays":5}}' };
    const limits = configuredCacheLimits(env, { waveforms: { maxDays: 7 } }, log);
    assert.deepEqual(limits.waveforms, { maxMegabytes: 10, maxDays: 7 });
    assert.deepEqual(warnings, []);
    assert.deepEqual(configuredCacheLimits({ SPEECH_STUDIO_CACHE_LIMITS: '{"waveforms":' }, {}, log), cacheLimits());
    assert.match(warnings[0], /SPEECH_STUDIO_CACHE_LIMITS is not valid/);
  });
});

describe('CachePruner', () => {
  let dataDir: string;
  before(async () => (dataDir = await tempDir('cache pruner ')));
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('prunes every cache of the data directory in one pass, each by its own limits', async () => {
    const limits = cacheLimits({
      waveforms: { maxDays: 10 },
      speechRegions: { maxDays: 10 },
      shotChanges: { maxDays: 10 },
      audiobook: { maxDays: 10 },
      damaged: { maxDays: 10 },
    });
    const pruner = new CachePruner(dataDir, { limits });
    const old = 20 * DAY;
    await entry(path.join(waveformsDir(dataDir), 'a.peaks'), 10, old);
    await entry(path.join(dataDir, 'cache', 'speech-regions', 'a.json'), 10, old);
    await entry(path.join(dataDir, 'cache', 'shot-changes', 'a.json'), 10, old);
    await entry(path.join(dataDir, 'cache', 'audiobook', 'a.wav'), 10, old);
    await entry(path.join(dataDir, 'jobs.json.damaged-1'), 10, old);
    await entry(path.join(dataDir, 'jobs.json'), 10, old);
    await entry(path.join(dataDir, 'lexicon.json'), 10, old);
    const reports = await pruner.pruneAll();
    assert.deepEqual(Object.fromEntries(Object.entries(reports).map(([name, r]) => [name, r.removed.length])), {
      waveforms: 1,
      speechRegions: 1,
      shotChanges: 1,
      audiobook: 1,
      damaged: 1,
    });
    assert.deepEqual((await readdir(dataDir)).filter((name) => !['waveforms', 'cache'].includes(name)).sort(), [
      'jobs.json',
      'lexicon.json',
    ]);
    await pruner.close();
  });

  it('after a write prunes at once, then at most once per interval however many writes follow', async () => {
    const interval = 400;
    const removals: number[] = [];
    const log = { info: () => removals.push(Date.now()), warn: () => undefined, error: () => undefined };
    const pruner = new CachePruner(dataDir, {
      limits: cacheLimits({ waveforms: { maxDays: 1 } }),
      log,
      minIntervalMs: interval,
    });
    const dir = waveformsDir(dataDir);
    await entry(path.join(dir, 'first.peaks'), 10, 2 * DAY);
    const firstPass = Date.now();
    pruner.noteWrite('waveforms');
    await waitFor(
      'the first pass',
      () => exists(path.join(dir, 'first.peaks')),
      (there) => !there,
    );
    await entry(path.join(dir, 'second.peaks'), 10, 2 * DAY);
    for (let i = 0; i < 5; i++) pruner.noteWrite('waveforms');
    await waitFor(
      'the second pass',
      () => exists(path.join(dir, 'second.peaks')),
      (there) => !there,
    );
    assert.equal(removals.length, 2, 'one pass for the five writes');
    assert.ok(
      removals[1] - firstPass >= interval - 5,
      `the second pass waited for the interval (${removals[1] - firstPass} ms)`,
    );
    await pruner.close();
  });

  it('runs nothing scheduled once closed', async () => {
    const pruner = new CachePruner(dataDir, {
      limits: cacheLimits({ speechRegions: { maxDays: 1 } }),
      minIntervalMs: 60_000,
    });
    await pruner.prune('speechRegions');
    const file = await entry(path.join(dataDir, 'cache', 'speech-regions', 'kept.json'), 10, 2 * DAY);
    pruner.noteWrite('speechRegions');
    await pruner.close();
    pruner.noteWrite('speechRegions');
    assert.ok(await exists(file));
  });
});

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );
