/**
 * ffmpeg compiled to WebAssembly, the toolchain for machines without a system ffmpeg: every accepted input
 * format probes and decodes like the system ffmpeg decodes it, every output format encodes to a file the
 * system ffprobe reads, the OpenAI opus stream encodes, and the choice between the two follows PATH and
 * SPEECH_STUDIO_FFMPEG. Fixtures are made with the system ffmpeg in a temp dir.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { WasmEncoder } from '../../src/engine/audio/wasm-encoder';
import { decodeToPcm16 } from '../../src/engine/media/decode-pcm16';
import { findMediaTools } from '../../src/engine/media/ffmpeg';
import {
  chooseMediaToolchain,
  describeMediaToolchain,
  isWasmMedia,
  WASM_MEDIA,
} from '../../src/engine/media/media-toolchain';
import { probeMedia } from '../../src/engine/media/probe-media';
import { UserFacingError } from '../../src/engine-api/protocol';
import { openAudioSink } from '../../src/engine/audio/audio-sink';
import { tempDir } from '../helpers/temp';

const run = promisify(execFile);
const SECONDS = 3;

/** Each accepted input, as the system ffmpeg writes it: [file name, output arguments]. */
const INPUTS: Array<[string, string[]]> = [
  ['tone.wav', ['-c:a', 'pcm_s16le']],
  ['tone.mp3', ['-c:a', 'libmp3lame']],
  ['tone.flac', ['-c:a', 'flac']],
  ['tone.ogg', ['-c:a', 'libvorbis']],
  ['tone.aac', ['-c:a', 'aac', '-f', 'adts']],
  ['tone.m4a', ['-c:a', 'aac']],
  ['tone.webm', ['-c:a', 'libopus']],
];

async function probeWithSystem(file: string): Promise<{ codec: string; duration: number; channels: number }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_name,channels',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(stdout) as {
    format: { duration: string };
    streams: Array<{ codec_name: string; channels: number }>;
  };
  return {
    codec: parsed.streams[0].codec_name,
    duration: Number(parsed.format.duration),
    channels: parsed.streams[0].channels,
  };
}

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

function tone(frames: number, rate: number): Int16Array {
  const samples = new Int16Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return samples;
}

describe('WebAssembly ffmpeg', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
    const source = ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${SECONDS}:sample_rate=44100`];
    for (const [name, args] of INPUTS)
      await run('ffmpeg', ['-v', 'error', '-y', ...source, '-ac', '2', ...args, path.join(dir, name)]);
    // A video with sound: the audio stream is the one decoded.
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=64x48:rate=10:duration=${SECONDS}`,
      ...source,
      '-c:v',
      'mpeg4',
      '-c:a',
      'aac',
      '-shortest',
      path.join(dir, 'tone.mp4'),
    ]);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const name of [...INPUTS.map(([file]) => file), 'tone.mp4']) {
    it(`probes and decodes ${name} as the system ffmpeg does`, async () => {
      const file = path.join(dir, name);
      const probe = await probeMedia(file, WASM_MEDIA);
      assert.equal(probe.hasAudio, true);
      assert.ok(
        probe.durationSeconds !== null && Math.abs(probe.durationSeconds - SECONDS) < 0.2,
        `duration ${probe.durationSeconds}`,
      );
      const wasm = await decodeToPcm16(file, WASM_MEDIA, { expectedSeconds: probe.durationSeconds ?? undefined });
      const system = await decodeToPcm16(file, findMediaTools());
      assert.equal(wasm.length, system.length);
      assert.ok(Math.abs(rms(wasm) - rms(system)) < 0.02 * rms(system), `rms ${rms(wasm)} vs ${rms(system)}`);
      assert.ok(rms(wasm) > 1000, 'the tone is there');
    });
  }

  it('decodes a window (-ss/-to) and stops at the length limit', async () => {
    const file = path.join(dir, 'tone.mp3');
    const part = await decodeToPcm16(file, WASM_MEDIA, { startSeconds: 1, endSeconds: 2 });
    assert.ok(Math.abs(part.length - 16_000) < 400, `${part.length} samples`);
    const tooLong = (): UserFacingError => new UserFacingError('too long for this test');
    await assert.rejects(decodeToPcm16(file, WASM_MEDIA, { maxSeconds: 1, tooLong }), /too long for this test/);
  });

  it("refuses a file that is not media, with ffmpeg's reason", async () => {
    const file = path.join(dir, 'notes.mp3');
    await writeFile(file, 'these are not the samples you are looking for\n'.repeat(100));
    await assert.rejects(
      probeMedia(file, WASM_MEDIA),
      (error: Error) => error instanceof UserFacingError && /not a media file ffmpeg can read: \S/.test(error.message),
    );
    await assert.rejects(
      decodeToPcm16(file, WASM_MEDIA),
      (error: Error) => error instanceof UserFacingError && /not a media file/.test(error.message),
    );
  });

  const outputs: Array<['mp3' | 'aac' | 'flac', string]> = [
    ['mp3', 'mp3'],
    ['aac', 'aac'],
    ['flac', 'flac'],
  ];
  for (const [format, codec] of outputs) {
    for (const channels of [1, 2] as const) {
      it(`encodes ${format} with ${channels} channel(s) that ffprobe reads`, async () => {
        const file = path.join(dir, `out-${channels}.${format}`);
        const encoder = await WasmEncoder.start(file, { format, sampleRate: 24_000, channels, bitrateKbps: 64 });
        for (let i = 0; i < 4; i++) await encoder.write(tone(12_000, 24_000));
        await encoder.writeSilence(12_000);
        const summary = await encoder.finish();
        assert.equal(summary.frames, 60_000);
        const probed = await probeWithSystem(file);
        assert.equal(probed.codec, codec);
        assert.equal(probed.channels, channels);
        // Decoded, not probed: an ADTS file's probed duration is an estimate from its bitrate.
        const decodedSeconds = (await decodeToPcm16(file, findMediaTools())).length / 16_000;
        assert.ok(Math.abs(decodedSeconds - 2.5) < 0.1, `duration ${decodedSeconds}`);
        assert.equal(summary.bytes > 1000, true);
      });
    }
  }

  it("encodes the OpenAI door's opus in the engine, live and mono (stereo libopus crashes this build)", async () => {
    const file = path.join(dir, 'speech.ogg');
    const sink = await openAudioSink(
      file,
      { format: 'opus', sampleRate: 24_000, channels: 2, bitrateKbps: null },
      WASM_MEDIA,
      true,
    );
    for (let i = 0; i < 4; i++) await sink.write(tone(12_000, 24_000));
    await sink.writeSilence(12_000);
    const summary = await sink.finish();
    assert.equal(summary.frames, 60_000);
    assert.equal((await readFile(file)).subarray(0, 4).toString('latin1'), 'OggS');
    const probed = await probeWithSystem(file);
    assert.equal(probed.codec, 'opus');
    assert.equal(probed.channels, 1);
    assert.ok(Math.abs(probed.duration - 2.5) < 0.1, `duration ${probed.duration}`);
  });

  it('is chosen when ffmpeg is not on PATH or when asked for, and says so', async () => {
    assert.equal(isWasmMedia(chooseMediaToolchain({ searchPath: path.join(dir, 'nothing-here') })), true);
    assert.equal(isWasmMedia(chooseMediaToolchain({ searchPath: process.env.PATH ?? '', ffmpeg: 'wasm' })), true);
    assert.deepEqual(chooseMediaToolchain({ searchPath: '', ffmpeg: '/opt/ff/ffmpeg' }), {
      ffmpeg: '/opt/ff/ffmpeg',
      ffprobe: '/opt/ff/ffprobe',
    });
    const bin = path.join(dir, 'bin');
    await mkdir(bin, { recursive: true });
    for (const name of ['ffmpeg', 'ffprobe']) {
      await writeFile(path.join(bin, name), '#!/bin/sh\necho "ffmpeg version 9.8.7 Copyright"\n');
      await chmod(path.join(bin, name), 0o755);
    }
    const found = chooseMediaToolchain({ searchPath: bin });
    assert.deepEqual(found, { ffmpeg: path.join(bin, 'ffmpeg'), ffprobe: path.join(bin, 'ffprobe') });
    assert.equal((await describeMediaToolchain(found)).description, `system ${path.join(bin, 'ffmpeg')} 9.8.7`);
    assert.deepEqual(await describeMediaToolchain(WASM_MEDIA), {
      kind: 'webassembly',
      version: '5.1.4',
      description: 'webassembly 5.1.4',
    });
  });
});
