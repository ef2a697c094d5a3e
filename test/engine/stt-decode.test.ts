/**
 * What the recognizer hears: for every media extension the STT upload accepts (MEDIA_EXTENSIONS), the
 * 16 kHz mono samples that decodeInput gives runSttTask (which hands them, VAD-compacted at most, to whisper
 * or Parakeet) are the recording in the file. Each container is made by ffmpeg from jfk.wav (itself 16 kHz
 * mono 16-bit, so its samples are the reference), and the decoded samples are compared with those samples
 * and with an independent decode of the same file by the ffmpeg command line: level, length and waveform.
 * No model is involved, so no random-weight model can make this pass; a wrong channel, rate, byte order,
 * stream or offset fails it. Both toolchains run: the system ffmpeg and the WebAssembly one.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { MEDIA_EXTENSIONS } from '../../src/contract/media-types';
import { findMediaTools } from '../../src/engine/media/ffmpeg';
import { WASM_MEDIA, type MediaToolchain } from '../../src/engine/media/media-toolchain';
import { decodeInput } from '../../src/engine/stt/decode-input';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

const run = promisify(execFile);
const RATE = 16_000;

/** How each accepted extension is written: the audio codec (and container) options, and whether a video track comes first. */
// `primed`: raw ADTS has no edit list, so the AAC encoder's priming and padding (1 024 samples at its rate,
// about 70 ms here) stay in the decoded audio, as every player hears them.
const RECIPES: Readonly<Record<string, { audio: string[]; video?: boolean; lossless?: boolean; primed?: boolean }>> = {
  wav: { audio: ['-c:a', 'pcm_s16le'], lossless: true },
  flac: { audio: ['-c:a', 'flac'], lossless: true },
  mp3: { audio: ['-c:a', 'libmp3lame', '-b:a', '128k'] },
  ogg: { audio: ['-c:a', 'libvorbis'] },
  oga: { audio: ['-c:a', 'libvorbis', '-f', 'ogg'] },
  opus: { audio: ['-c:a', 'libopus', '-b:a', '64k', '-f', 'ogg'] },
  aac: { audio: ['-c:a', 'aac', '-b:a', '128k', '-f', 'adts'], primed: true },
  m4a: { audio: ['-c:a', 'aac', '-b:a', '128k'] },
  mp4: { audio: ['-c:a', 'aac', '-b:a', '128k'], video: true },
  m4v: { audio: ['-c:a', 'aac', '-b:a', '128k', '-f', 'mp4'], video: true },
  mov: { audio: ['-c:a', 'aac', '-b:a', '128k'], video: true },
  webm: { audio: ['-c:a', 'libopus', '-b:a', '64k'], video: true },
  mkv: { audio: ['-c:a', 'flac'], video: true, lossless: true },
};

const pcmOf = (bytes: Buffer): Int16Array =>
  new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

const rms = (samples: Int16Array): number => {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, samples.length));
};

/** The normalized correlation of `a` against `b` shifted by `lag` samples, over `a`'s samples from `from` for `length`. */
function correlationAt(a: Int16Array, b: Int16Array, lag: number, from: number, length: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = from; i < from + length; i++) {
    const x = a[i];
    const y = b[i + lag] ?? 0;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return ab / Math.sqrt(aa * bb || 1);
}

/** The best correlation within ±`maxLag` samples (lossy codecs may move the signal by their delay), over 4 s of speech. */
function bestCorrelation(
  decoded: Int16Array,
  reference: Int16Array,
  maxLag: number,
): { correlation: number; lag: number } {
  const from = RATE; // 1 s in: speech, past any encoder priming
  const length = Math.min(4 * RATE, decoded.length - from - maxLag, reference.length - from - maxLag);
  let best = { correlation: -1, lag: 0 };
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    const correlation = correlationAt(decoded, reference, lag, from, length);
    if (correlation > best.correlation) best = { correlation, lag };
  }
  return best;
}

describe('the samples an STT job hands the recognizer match the uploaded file, for every accepted container', () => {
  let dir: string;
  let original: Int16Array;
  const toolchains: Array<[string, () => MediaToolchain]> = [
    [
      'system ffmpeg',
      () => {
        const tools = findMediaTools();
        assert.ok(tools, 'ffmpeg and ffprobe are on the PATH');
        return tools;
      },
    ],
    ['WebAssembly ffmpeg', () => WASM_MEDIA],
  ];

  before(async () => {
    dir = await tempDir();
    const jfk = testModel('audio/jfk.wav');
    original = pcmOf(
      (
        await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', jfk, '-f', 's16le', '-'], {
          encoding: 'buffer',
          maxBuffer: 64 << 20,
        })
      ).stdout,
    );
    for (const [extension, recipe] of Object.entries(RECIPES)) {
      const video = recipe.video
        ? [
            '-f',
            'lavfi',
            '-i',
            'color=c=blue:s=64x64:r=10:d=12',
            '-map',
            '0:v',
            '-map',
            '1:a',
            '-c:v',
            extension === 'webm' ? 'libvpx' : 'mpeg4',
          ]
        : [];
      await run('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        ...(recipe.video ? video.slice(0, 4) : []),
        '-i',
        jfk,
        ...(recipe.video ? video.slice(4) : []),
        ...recipe.audio,
        path.join(dir, `talk.${extension}`),
      ]);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("has a recipe for every media extension the upload accepts, and the reference is jfk.wav's 11 s", () => {
    assert.deepEqual(Object.keys(RECIPES).sort(), [...MEDIA_EXTENSIONS].sort());
    assert.ok(Math.abs(original.length - 11 * RATE) < RATE, `${original.length} samples`);
  });

  for (const [toolName, tools] of toolchains) {
    for (const [extension, recipe] of Object.entries(RECIPES)) {
      it(`${extension} with the ${toolName}: level, length and waveform of the file`, async () => {
        const file = path.join(dir, `talk.${extension}`);
        const { pcm, startSeconds } = await decodeInput(file, {}, tools(), () => undefined);
        assert.equal(startSeconds, 0);
        const independent = pcmOf(
          (
            await run(
              'ffmpeg',
              ['-nostdin', '-v', 'error', '-i', file, '-vn', '-ac', '1', '-ar', String(RATE), '-f', 's16le', '-'],
              { encoding: 'buffer', maxBuffer: 64 << 20 },
            )
          ).stdout,
        );

        if (recipe.lossless) {
          assert.equal(pcm.length, original.length, 'every sample, no more');
          assert.deepEqual(pcm, original, 'a lossless container gives back the very samples');
          return;
        }
        // Lossy: the length within 50 ms (150 ms with the priming kept), the level within 10 %, the same waveform.
        const slack = (recipe.primed ? 0.15 : 0.05) * RATE;
        assert.ok(Math.abs(pcm.length - original.length) <= slack, `${pcm.length} samples against ${original.length}`);
        const level = rms(pcm) / rms(original);
        assert.ok(level > 0.9 && level < 1.1, `level ${level.toFixed(3)} of the original's`);
        const againstOriginal = bestCorrelation(pcm, original, slack);
        assert.ok(
          againstOriginal.correlation > 0.95,
          `correlation with jfk.wav ${againstOriginal.correlation.toFixed(4)} at lag ${againstOriginal.lag}`,
        );
        const againstFfmpeg = bestCorrelation(pcm, independent, 40);
        assert.ok(
          againstFfmpeg.correlation > 0.99,
          `correlation with ffmpeg's own decode ${againstFfmpeg.correlation.toFixed(4)} at lag ${againstFfmpeg.lag}`,
        );
      });
    }
  }

  it('decodes only the cropped part, at its place in the file', async () => {
    const { pcm, startSeconds, endSeconds } = await decodeInput(
      path.join(dir, 'talk.flac'),
      { cropStartSeconds: 2, cropEndSeconds: 5 },
      toolchains[0][1](),
      () => undefined,
    );
    assert.deepEqual([startSeconds, endSeconds], [2, 5]);
    assert.deepEqual(pcm, original.subarray(2 * RATE, 5 * RATE));
  });
});
