import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { runWaveformTask } from '../../src/engine/media/waveform-task';
import { readWaveformFile } from '../../src/audio/waveform-file';
import { PeakBuckets } from '../../src/engine/media/waveform-peaks';
import { TaskYieldedError, type ProgressReporter, type WaveformTask } from '../../src/engine-api/protocol';
import { EngineHost } from '../../src/jobs/engine-host';
import { cachePrunerFor, cacheLimits, releaseCachePruner } from '../../src/util/data-dir-caches';
import { silentLogger } from '../../src/util/log';
import { encodeVideoWithAudio } from '../helpers/media-fixtures';
import { waitFor } from '../helpers/server';
import { tempDir } from '../helpers/temp';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';

const RATE = 8000;

/** A 16-bit mono WAV at 8 kHz: 1 s of a 200 Hz tone at ±10 000, 0.5 s of silence, 0.5 s of the tone at ±5 000. */
function toneWav(): Buffer {
  const samples = new Int16Array(2 * RATE);
  for (let i = 0; i < samples.length; i++) {
    const amplitude = i < RATE ? 10_000 : i < 1.5 * RATE ? 0 : 5_000;
    samples[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 200 * i) / RATE));
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer)]);
}

const noReport: ProgressReporter = () => undefined;

/** [min, max] of bucket `i`. */
const bucket = (pairs: Int16Array, i: number): [number, number] => [pairs[i * 2], pairs[i * 2 + 1]];

describe('PeakBuckets', () => {
  it('gives the same peaks whether the bytes arrive whole or split inside samples', () => {
    const samples = Int16Array.from({ length: 1001 }, (_, i) => ((i * 7919) % 65536) - 32768);
    const bytes = new Uint8Array(samples.buffer);
    const whole = new PeakBuckets(10);
    whole.push(bytes);
    const split = new PeakBuckets(10, 1);
    for (let at = 0; at < bytes.length; at += 3) split.push(bytes.subarray(at, at + 3));
    const expected: number[] = [];
    for (let from = 0; from < samples.length; from += 10) {
      const part = [...samples.subarray(from, from + 10)];
      expected.push(Math.min(...part), Math.max(...part));
    }
    assert.deepEqual([...whole.finish()], expected);
    assert.deepEqual([...split.finish()], expected, 'the split stream (and a grown buffer) gives the same');
    assert.equal(expected.length, 2 * 101, 'the last, partial bucket counts');
  });
});

describe('the waveform task', () => {
  let dir: string;
  let media: string;
  let dataDir: string;
  const task = (): WaveformTask => ({ kind: 'waveform', mediaPath: media, dataDir, bucketsPerSecond: 100 });

  before(async () => {
    dir = await tempDir('speech-studio-waveform-');
    media = path.join(dir, 'tone.wav');
    dataDir = path.join(dir, 'data');
    await writeFile(media, toneWav());
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('finds the known peaks of a generated tone, 100 buckets a second', async () => {
    const { result } = await runWaveformTask(task(), noReport);
    assert.equal(result.cached, false);
    assert.equal(result.buckets, 200);
    assert.equal(result.durationSeconds, 2);
    const peaks = await readWaveformFile(result.peaksPath);
    assert.ok(peaks, 'the peaks are cached in the data directory');
    assert.equal(path.dirname(result.peaksPath), path.join(dataDir, 'waveforms'));
    for (let i = 0; i < 200; i++) {
      const expected = i < 100 ? [-10_000, 10_000] : i < 150 ? [0, 0] : [-5_000, 5_000];
      assert.deepEqual(bucket(peaks.pairs, i), expected, `bucket ${i}`);
    }
  });

  it('answers from the cache for the same file, and decodes again once the file changes', async () => {
    const first = await runWaveformTask(task(), noReport);
    const again = await runWaveformTask(task(), noReport);
    assert.equal(again.result.cached, true);
    assert.equal(again.result.peaksPath, first.result.peaksPath);
    assert.equal(again.result.buckets, 200);
    const later = new Date(Date.now() + 60_000);
    await utimes(media, later, later);
    const changed = await runWaveformTask(task(), noReport);
    assert.equal(changed.result.cached, false, 'a new modification time is a new version of the file');
    assert.notEqual(changed.result.peaksPath, first.result.peaksPath);
  });

  it("records each use of a cached file, so the cache's pruning keeps what is in use", async () => {
    const { result } = await runWaveformTask(task(), noReport);
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    await utimes(result.peaksPath, longAgo, longAgo);
    assert.equal((await runWaveformTask(task(), noReport)).result.cached, true);
    assert.ok(Date.now() - (await stat(result.peaksPath)).mtimeMs < 60_000, 'used just now');
  });

  it('recomputes a damaged cache file instead of trusting it', async () => {
    const { result } = await runWaveformTask(task(), noReport);
    await writeFile(result.peaksPath, 'not peaks');
    const repaired = await runWaveformTask(task(), noReport);
    assert.equal(repaired.result.cached, false);
    assert.equal((await readWaveformFile(result.peaksPath))?.pairs.length, 400);
    assert.deepEqual(
      (await readdir(path.dirname(result.peaksPath))).filter((name) => name.endsWith('.partial')),
      [],
      'no partial file is left',
    );
  });

  it('reads the audio of a video file', async () => {
    const video = await encodeVideoWithAudio(media, dir);
    const { result } = await runWaveformTask({ ...task(), mediaPath: video }, noReport);
    assert.ok(Math.abs(result.durationSeconds - 2) < 0.1, `${result.durationSeconds} s`);
  });

  it('stops with TaskYieldedError when asked to yield while decoding, caches nothing, and draws the same peaks when run again', async () => {
    const yieldData = path.join(dir, 'yield-data');
    const yielding = new AbortController();
    // Asked to yield as soon as the first decoded audio has arrived: in the middle of the decoding.
    const askOnProgress: ProgressReporter = (_phase, progress) => progress > 0 && yielding.abort();
    await assert.rejects(
      runWaveformTask({ ...task(), dataDir: yieldData }, askOnProgress, yielding.signal),
      TaskYieldedError,
    );
    assert.equal(
      existsSync(path.join(yieldData, 'waveforms')) && (await readdir(path.join(yieldData, 'waveforms'))).length > 0,
      false,
      'no peaks file from a stopped task',
    );
    const again = await runWaveformTask({ ...task(), dataDir: yieldData }, noReport, new AbortController().signal);
    const reference = await runWaveformTask(task(), noReport);
    assert.equal(again.result.cached, false);
    assert.deepEqual(
      [...(await readWaveformFile(again.result.peaksPath))!.pairs],
      [...(await readWaveformFile(reference.result.peaksPath))!.pairs],
    );
  });

  it('run again after a yield, continues where it stopped instead of from the start', async () => {
    // A minute of the tone: ffmpeg hands it over in several pieces, so the yield comes part of the way in.
    const long = path.join(dir, 'minute.wav');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '29', '-i', media, '-c', 'copy', long]);
    const sameVersion = (): Promise<void> => utimes(long, 1_700_000_000, 1_700_000_000);
    await sameVersion();
    const minute: WaveformTask = {
      kind: 'waveform',
      mediaPath: long,
      dataDir: path.join(dir, 'resume-data'),
      bucketsPerSecond: 100,
    };
    const yielding = new AbortController();
    await assert.rejects(
      runWaveformTask(minute, (_phase, progress) => progress > 0 && yielding.abort(), yielding.signal),
      TaskYieldedError,
    );
    // The file's audio becomes silence behind the waveform's back (same size, same time: the same version to
    // it). Buckets it drew before the yield keep the tone; the ones it draws after are silent.
    const wav = await readFile(long);
    wav.fill(0, wav.indexOf('data', 12, 'latin1') + 8);
    await writeFile(long, wav);
    await sameVersion();
    const { result } = await runWaveformTask(minute, noReport, new AbortController().signal);
    const pairs = (await readWaveformFile(result.peaksPath))!.pairs;
    assert.equal(result.buckets, 6000, 'a minute of buckets');
    const lastTone = pairs.findLastIndex((value) => value !== 0);
    assert.ok(lastTone >= 0, 'buckets drawn before the yield were kept: they have the tone');
    assert.ok(
      lastTone < 2 * 6000 - 2 * 100,
      `buckets drawn after the yield are silent: the tone ends at bucket ${lastTone >> 1}`,
    );
  });

  it('refuses a relative path and a resolution that does not divide the decoding rate, with a sentence', async () => {
    const { checkWaveformTask } = await import('../../src/engine/media/waveform-task');
    assert.throws(() => checkWaveformTask({ ...task(), mediaPath: 'tone.wav' }), /absolute path of the media/);
    assert.throws(() => checkWaveformTask({ ...task(), bucketsPerSecond: 7 }), /must divide 8000/);
  });

  it('a new peaks file made through EngineHost.waveform has the waveform cache pruned to its limits', async () => {
    const worker = path.join(__dirname, '..', '..', 'dist', 'engine-worker.js');
    const host = new EngineHost({ workerPath: worker, log: silentLogger, config: () => engineConfigFromEnvironment() });
    const stale = path.join(dataDir, 'waveforms', 'stale.peaks');
    await writeFile(stale, 'old peaks');
    const longAgo = new Date(Date.now() - 10 * 86_400_000);
    await utimes(stale, longAgo, longAgo);
    await releaseCachePruner(dataDir);
    cachePrunerFor(dataDir).configure(cacheLimits({ waveforms: { maxDays: 5 } }));
    try {
      assert.equal(
        (await host.waveform({ ...task(), bucketsPerSecond: 20 }, new AbortController().signal)).cached,
        false,
      );
      await waitFor(
        'the stale peaks to be pruned',
        async () => existsSync(stale),
        (there) => !there,
        5000,
      );
    } finally {
      await host.close();
      await releaseCachePruner(dataDir);
    }
  });

  it('runs in an engine process through EngineHost.waveform, not in the caller', async () => {
    const worker = path.join(__dirname, '..', '..', 'dist', 'engine-worker.js');
    assert.ok(existsSync(worker), 'run `npm run build` first');
    const host = new EngineHost({ workerPath: worker, log: silentLogger, config: () => engineConfigFromEnvironment() });
    try {
      const result = await host.waveform({ ...task(), bucketsPerSecond: 50 }, new AbortController().signal);
      assert.equal(result.buckets, 100);
      assert.equal(result.cached, false);
      assert.ok(result.engineMaxRssBytes > 0);
      assert.equal(host.pids.length, 1, 'one engine process ran it');
      await assert.rejects(
        host.waveform({ ...task(), mediaPath: path.join(dir, 'missing.wav') }, new AbortController().signal),
        /cannot be read/,
      );
    } finally {
      await host.close();
    }
  });
});
