/**
 * Long silence costs neither disk nor time: a narration whose cues are hours apart is laid out with holes
 * in its files (counted, not written), yet sounds exactly as if every zero had been written.
 */
import assert from 'node:assert/strict';
import { mkdir, open, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import { SampleSpool } from '../../src/engine/audio/sample-spool';
import { readWavSamples } from '../../src/audio/wav-reader';
import { WavWriter } from '../../src/engine/audio/wav-writer';
import { UserFacingError, type TtsTask } from '../../src/engine-api/protocol';
import { runTtsTask } from '../../src/engine/tts/run-tts';
import { SpeechRecorder, type RecordingSummary } from '../../src/engine/tts/speech-recorder';
import { tempDir } from '../helpers/temp';
import { probeAudio, srtOf } from '../helpers/tts-audio';

const OPTIONS: Omit<TtsRequest, 'text'> = {
  voiceId: '59ecd22d-96db-56b8-a0f4-62d14ba28a8b',
  language: 'auto',
  inputFormat: 'srt',
  outputFormat: 'wav',
  sampleRate: 16000,
  bitrateKbps: 64,
  audioChannels: 'mono',
  steps: 32,
  guidanceScale: 2,
  speed: 1,
  duration: null,
  denoise: true,
  preprocessPrompt: true,
  postprocessOutput: true,
  trimSilence: true,
};

/** Bytes the file really takes on disk. */
const allocated = async (file: string): Promise<number> => (await stat(file)).blocks * 512;

/** A voice-like test signal: tone bursts over a hiss the denoiser gates, so every filter has state. */
function speechLike(seconds: number, rate: number, seed: number): Int16Array {
  const out = new Int16Array(Math.round(seconds * rate));
  let random = seed;
  for (let i = 0; i < out.length; i++) {
    random = (random * 1_103_515_245 + 12_345) % 2_147_483_648;
    const hiss = (random / 2_147_483_648 - 0.5) * 200;
    const burst = Math.floor((i / rate) * 4) % 2 === 0 ? 9000 * Math.sin((2 * Math.PI * 220 * i) / rate) : 0;
    out[i] = Math.round(burst + hiss);
  }
  return out;
}

async function readSpool(summary: RecordingSummary): Promise<Int16Array> {
  const spool = await SampleSpool.open(summary.path, summary.sampleRate);
  const parts: number[] = [];
  for await (const block of spool.read()) parts.push(...block);
  await spool.close();
  return Int16Array.from(parts);
}

describe('long silence in TTS output', () => {
  let dir = '';
  let sparse = false;
  let runs = 0;

  before(async () => {
    dir = await tempDir('speech-studio-silence-');
    // Holes need a file system with sparse files (ext4, xfs, tmpfs, APFS, NTFS with the flag); elsewhere
    // the system writes the zeros itself and only the time is saved.
    const probe = path.join(dir, 'sparse-probe');
    await writeFile(probe, '');
    await truncate(probe, 64 * 1024 * 1024);
    sparse = (await allocated(probe)) < 1024 * 1024;
    await rm(probe);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a recorder pads with silence exactly as if it had written the zeros, without writing them', async () => {
    const rate = 24_000;
    const record = async (name: string, pad: (recorder: SpeechRecorder, position: number) => Promise<void>) => {
      const recorder = await SpeechRecorder.create(path.join(dir, name), rate, { denoise: true });
      await recorder.write(speechLike(2, rate, 1));
      await pad(recorder, recorder.length + 3 * rate + 123);
      await recorder.write(speechLike(1.5, rate, 2));
      await pad(recorder, recorder.length + 2 * rate);
      return recorder.finish();
    };
    const counted = await record('counted.pcm', (recorder, position) => recorder.padTo(position));
    const written = await record('written.pcm', async (recorder, position) => {
      while (recorder.length < position)
        await recorder.write(new Int16Array(Math.min(4096, position - recorder.length)));
    });

    assert.equal(counted.length, written.length);
    assert.equal(counted.silentRuns.length, 2, 'both pauses were counted, not written');
    assert.equal(written.silentRuns.length, 0);
    const a = await readSpool(counted);
    const b = await readSpool(written);
    let largest = 0;
    for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i] - b[i]));
    assert.ok(largest <= 1, `the samples differ by up to ${largest}`);
    assert.ok(
      counted.lufs !== null && written.lufs !== null && Math.abs(counted.lufs - written.lufs) < 0.01,
      `${counted.lufs} vs ${written.lufs} LUFS`,
    );
    assert.equal(counted.peak, written.peak);
    assert.equal(counted.heardSpeech, written.heardSpeech);
  });

  it('an hour of padding leaves a hole in the spool, not 170 MB of zeros', async (ctx) => {
    const rate = 48_000;
    const recorder = await SpeechRecorder.create(path.join(dir, 'hour.pcm'), rate, { denoise: true });
    await recorder.write(speechLike(1, rate, 3));
    await recorder.padTo(3600 * rate);
    const summary = await recorder.finish();
    assert.equal(summary.length, 3600 * rate);
    assert.equal((await stat(summary.path)).size, 3600 * rate * 2, 'the file has its full length');
    if (!sparse) return ctx.skip('this file system has no sparse files');
    assert.ok(
      (await allocated(summary.path)) < 2 * 1024 * 1024,
      `the spool takes ${await allocated(summary.path)} bytes`,
    );
  });

  it('a WAV writer skips silence as a hole and still writes the right samples and header', async () => {
    const file = path.join(dir, 'holes.wav');
    const writer = await WavWriter.create(file, { sampleRate: 8000, channels: 2 });
    await writer.write(Int16Array.from([1, 2, 3]));
    await writer.writeSilence(1000);
    await writer.write(Int16Array.from([-4, 5]));
    await writer.writeSilence(500);
    const summary = await writer.close();
    assert.deepEqual(summary, { bytes: 44 + 1505 * 4, frames: 1505 });
    const { info, samples } = readWavSamples(await readFile(file));
    assert.equal(info.channels, 2);
    assert.equal(samples.length, 1505 * 2);
    assert.deepEqual([...samples.subarray(0, 6)], [1, 1, 2, 2, 3, 3]);
    assert.ok(samples.subarray(6, 2006).every((v) => v === 0));
    assert.deepEqual([...samples.subarray(2006, 2010)], [-4, -4, 5, 5]);
    assert.ok(samples.subarray(2010).every((v) => v === 0));

    // Past the 4 GB a WAV file can describe, even silence is refused, with a way out.
    const long = await WavWriter.create(path.join(dir, 'long.wav'), { sampleRate: 48000, channels: 2 });
    await long.writeSilence(48000 * 3600 * 6);
    await assert.rejects(long.writeSilence(48000 * 3600), (error: unknown) => {
      assert.ok(error instanceof UserFacingError);
      assert.match(error.message, /^The audio is longer than a WAV file can hold \(4 GB\): choose mp3, aac or flac/);
      return true;
    });
    await long.abort();
  });

  async function narrate(srt: string, options: Partial<TtsTask['options']> = {}) {
    const run = `narration-${(runs += 1)}`;
    const folder = path.join(dir, run);
    await mkdir(folder);
    const extension = options.outputFormat ?? 'wav';
    const task: TtsTask = {
      kind: 'tts',
      textPath: path.join(folder, 'input.srt'),
      outputPath: path.join(folder, `output.${extension}`),
      options: { ...OPTIONS, ...options },
      voice: { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US' },
    };
    await writeFile(task.textPath, srt);
    const outcome = await runTtsTask(task, () => undefined);
    return { task, folder, result: outcome.result as Record<string, any> };
  }

  it('narrates cues two hours apart into a WAV of the full length that takes almost no disk', async () => {
    const { task, folder, result } = await narrate(
      srtOf([
        [1, 2, 'Good morning.'],
        [7200, 7201.5, 'Good evening.'],
      ]),
    );
    assert.equal(result.durationSeconds, 7201.5);
    const rate = OPTIONS.sampleRate;
    assert.equal((await stat(task.outputPath)).size, 44 + 7201.5 * rate * 2);
    assert.deepEqual((await readdir(folder)).sort(), ['input.srt', 'output.wav'], 'the spool is gone');

    // The second cue is spoken where its cue says, two hours in.
    const handle = await open(task.outputPath, 'r');
    try {
      const bytes = Buffer.alloc(rate * 2 * 2);
      await handle.read(bytes, 0, bytes.length, 44 + (7200 - 0.5) * rate * 2);
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
      const onset = samples.findIndex((v) => Math.abs(v) > 300);
      assert.ok(onset >= 0, 'speech at two hours');
      assert.ok(Math.abs(onset / rate - 0.5) < 0.03, `the second cue starts ${onset / rate - 0.5} s off its time`);
    } finally {
      await handle.close();
    }
    if (sparse)
      assert.ok(
        (await allocated(task.outputPath)) < 4 * 1024 * 1024,
        `the output takes ${await allocated(task.outputPath)} bytes`,
      );
  });

  it('narrates cues minutes apart into an MP3 whose silence went to ffmpeg as it should', async () => {
    const { task, result } = await narrate(
      srtOf([
        [0.5, 1.5, 'Hello.'],
        [300, 301, 'Five minutes later.'],
      ]),
      { outputFormat: 'mp3', sampleRate: 24000 },
    );
    assert.equal(result.durationSeconds, 301);
    const probed = await probeAudio(task.outputPath);
    assert.equal(probed.codec, 'mp3');
    assert.ok(Math.abs(probed.decodedSeconds - 301) < 0.1, `${probed.decodedSeconds} s decoded`);
  });
});
