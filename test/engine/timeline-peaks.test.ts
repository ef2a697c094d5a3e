// The timeline's waveform is scaled to the media's own peak: a quiet generated tone, decoded by the real
// waveform task (ffmpeg), fills the height instead of drawing a flat line; silence stays flat.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { findMediaTools } from '../../src/engine/media/ffmpeg';
import { runWaveformTask } from '../../src/engine/media/waveform-task';
import { normalizedPeaks, timelinePeaks } from '../../src/editor/subtitles/timeline-peaks';

const run = promisify(execFile);
let dir = '';

// The engine host's waveform call, made in this process: the real task, without the child process around it.
const engine = {
  waveform: async (task: Parameters<typeof runWaveformTask>[0]) =>
    (await runWaveformTask(task, () => undefined)).result,
};

async function tone(name: string, amplitude: number): Promise<string> {
  const file = path.join(dir, name);
  await run(findMediaTools().ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=16000:duration=2`,
    '-af',
    `volume=${amplitude}`,
    '-y',
    file,
  ]);
  return file;
}

const decode = (base64: string): Int8Array => new Int8Array(Buffer.from(base64, 'base64'));

describe('timeline peaks', () => {
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'timeline-peaks-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('scales a quiet tone (about 0.1 % of full scale) to the full height', async () => {
    const file = await tone('quiet.wav', 0.01);
    const peaks = await timelinePeaks(engine, dir, file, new AbortController().signal);
    const bytes = decode(peaks.peaks);
    assert.ok(Math.abs(peaks.buckets - 200) <= 2, `100 buckets a second of 2 s: ${peaks.buckets}`);
    assert.ok(peaks.peak > 0.0008 && peaks.peak < 0.002, `the tone peaks at ${peaks.peak} of full scale`);
    assert.equal(Math.max(...bytes), 127, 'the loudest bucket reaches the top');
    // Every bucket of a steady tone is near the top and bottom, not a line in the middle.
    const middle = bytes.slice(20, -20);
    for (let i = 0; i < middle.length; i += 2) {
      assert.ok(middle[i] <= -100 && middle[i + 1] >= 100, `bucket ${i / 2 + 10} spans ${middle[i]}…${middle[i + 1]}`);
    }
  });

  it('leaves silence flat and keeps a full-scale recording as it is', () => {
    assert.deepEqual([...normalizedPeaks(new Int16Array([0, 0, 0, 0])).bytes], [0, 0, 0, 0]);
    assert.equal(normalizedPeaks(new Int16Array(4)).peak, 0);
    const loud = normalizedPeaks(new Int16Array([-32768, 32767, 0, 16384]));
    assert.deepEqual([...loud.bytes], [-127, 127, 0, 64]);
    assert.equal(loud.peak, 1);
  });
});
