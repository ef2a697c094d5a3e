/**
 * The live encoders (the OpenAI door's mp3, aac and opus): the first second of speech must reach the file as
 * audio frames while the input is still open, not after ffmpeg has buffered 5 s of it or its end. Both the
 * system ffmpeg and the WebAssembly one, through the engine's own sink.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openAudioSink } from '../../src/engine/audio/audio-sink';
import type { EngineOutputFormat } from '../../src/engine/audio/encoder-settings';
import { findMediaTools } from '../../src/engine/media/ffmpeg';
import { WASM_MEDIA, type MediaToolchain } from '../../src/engine/media/media-toolchain';
import { tempDir } from '../helpers/temp';
import { probeAudio } from '../helpers/tts-audio';

const RATE = 24_000;
/** Generous: a deadline for a starved machine, not a speed target (the bench measures that). */
const FRAMES_DEADLINE_MS = 8_000;

function tone(frames: number): Int16Array {
  const samples = new Int16Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE));
  return samples;
}

/** Whether the bytes hold an audio frame (not only the container's header) of the format. */
function holdsAudioFrame(bytes: Buffer, format: EngineOutputFormat): boolean {
  if (format === 'opus') return bytes.toString('latin1').split('OggS').length - 1 >= 3; // OpusHead, OpusTags, audio
  let start = 0;
  if (format === 'mp3' && bytes.subarray(0, 3).toString('latin1') === 'ID3') {
    if (bytes.length < 10) return false;
    start = 10 + ((bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9]);
  }
  const syncMask = format === 'mp3' ? 0xe0 : 0xf0;
  for (let i = start; i + 1 < bytes.length; i++) {
    if (bytes[i] === 0xff && (bytes[i + 1] & syncMask) === syncMask) return true;
  }
  return false;
}

async function waitForAudioFrame(file: string, format: EngineOutputFormat): Promise<void> {
  const deadline = Date.now() + FRAMES_DEADLINE_MS;
  for (;;) {
    const bytes = await readFile(file).catch(() => Buffer.alloc(0));
    if (holdsAudioFrame(bytes, format)) return;
    if (Date.now() > deadline) throw new Error(`no ${format} frame in ${file} while its input was open`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const TOOLCHAINS: Array<[string, () => MediaToolchain]> = [
  ['the system ffmpeg', () => findMediaTools()],
  ['the WebAssembly ffmpeg', () => WASM_MEDIA],
];

describe('live encoding', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const [name, tools] of TOOLCHAINS) {
    for (const format of ['mp3', 'aac', 'opus'] as const) {
      it(`${name} writes ${format} frames of one second of speech while the input stays open`, async () => {
        const file = path.join(dir, `${name.replace(/\W+/g, '-')}.${format}`);
        const sink = await openAudioSink(
          file,
          { format, sampleRate: RATE, channels: 1, bitrateKbps: 128 },
          tools(),
          true,
        );
        try {
          await sink.write(tone(RATE));
          await waitForAudioFrame(file, format);
          await sink.write(tone(RATE / 2));
          const summary = await sink.finish();
          assert.equal(summary.frames, RATE * 1.5);
        } catch (error) {
          await sink.abort();
          throw error;
        }
        const probed = await probeAudio(file);
        assert.ok(Math.abs(probed.decodedSeconds - 1.5) < 0.1, `${probed.decodedSeconds} s decoded`);
      });
    }
  }
});
