/**
 * The system ffmpeg against ffmpeg compiled to WebAssembly (what runs when none is installed), on the same
 * files: decode time of a 10-minute recording in each input format to the 16 kHz samples speech-to-text
 * takes, encode time of 10 minutes of 24 kHz speech samples to mp3, aac and flac, and the engine process's
 * peak RSS while it decodes a 1-hour upload, on each path. No targets: figures for the README.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { FfmpegEncoder } from '../src/engine/audio/ffmpeg-encoder';
import { WasmEncoder } from '../src/engine/audio/wasm-encoder';
import { decodeToPcm16 } from '../src/engine/media/decode-pcm16';
import { findMediaTools } from '../src/engine/media/ffmpeg';
import { WASM_MEDIA, type MediaToolchain } from '../src/engine/media/media-toolchain';
import { wasmFfmpegModule } from '../src/engine/media/wasm-ffmpeg';
import { startCli } from '../test/helpers/cli';
import { uploadMultipart } from '../test/helpers/multipart';
import { tempDir } from '../test/helpers/server';
import { childrenOf, installSyntheticWhisper } from '../test/pressure/support';
import { figure, rssMb, type Figure } from './report';

const run = promisify(execFile);
const MINUTES = 10;
const INPUTS: Array<[string, string[]]> = [
  ['mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']],
  ['m4a', ['-c:a', 'aac', '-b:a', '128k']],
  ['flac', ['-c:a', 'flac']],
  ['ogg', ['-c:a', 'libvorbis']],
  ['webm', ['-c:a', 'libopus']],
  ['wav', ['-c:a', 'pcm_s16le']],
];
/** Speech-like enough for the codecs: a tone under noise, stereo 44.1 kHz as recordings are. */
const SOURCE = (seconds: number): string[] => [
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=220:sample_rate=44100:duration=${seconds}`,
  '-f',
  'lavfi',
  '-i',
  `anoisesrc=color=pink:amplitude=0.1:sample_rate=44100:duration=${seconds}`,
  '-filter_complex',
  'amix=inputs=2',
  '-ac',
  '2',
];

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

async function encode(file: string, format: 'mp3' | 'aac' | 'flac', tools: MediaToolchain): Promise<void> {
  const settings = { format, sampleRate: 24_000, channels: 1 as const, bitrateKbps: 64 };
  const encoder =
    'wasm' in tools ? await WasmEncoder.start(file, settings) : FfmpegEncoder.start(file, settings, tools.ffmpeg);
  const block = new Int16Array(24_000);
  for (let i = 0; i < block.length; i++) block[i] = Math.round(6000 * Math.sin(i / 7) + 2000 * Math.sin(i / 3.1));
  for (let second = 0; second < MINUTES * 60; second++) await encoder.write(block);
  await encoder.finish();
}

export async function runFfmpegBench(): Promise<Figure[]> {
  const dir = await tempDir('speech-bench-ffmpeg-');
  const figures: Figure[] = [];
  const system = findMediaTools();
  try {
    const compile = await seconds(() => wasmFfmpegModule());
    figures.push(figure('ffmpeg', 'WebAssembly module compile (once per process)', compile, 's'));
    for (const [extension, codec] of INPUTS) {
      const file = path.join(dir, `talk.${extension}`);
      await run('ffmpeg', ['-v', 'error', '-y', ...SOURCE(MINUTES * 60), ...codec, file]);
      const native = await seconds(() => decodeToPcm16(file, system));
      const wasm = await seconds(() => decodeToPcm16(file, WASM_MEDIA));
      figures.push(
        figure(
          'ffmpeg',
          `decode ${MINUTES} min ${extension}: WebAssembly time ÷ system time`,
          wasm / native,
          '×',
          undefined,
          `system ${native.toFixed(2)} s, WebAssembly ${wasm.toFixed(2)} s, ${((MINUTES * 60) / wasm).toFixed(0)}× real time`,
        ),
      );
    }
    for (const format of ['mp3', 'aac', 'flac'] as const) {
      const native = await seconds(() => encode(path.join(dir, `native.${format}`), format, system));
      const wasm = await seconds(() => encode(path.join(dir, `wasm.${format}`), format, WASM_MEDIA));
      figures.push(
        figure(
          'ffmpeg',
          `encode ${MINUTES} min ${format}: WebAssembly time ÷ system time`,
          wasm / native,
          '×',
          undefined,
          `system ${native.toFixed(2)} s, WebAssembly ${wasm.toFixed(2)} s, ${((MINUTES * 60) / wasm).toFixed(0)}× real time`,
        ),
      );
    }
    if (process.platform === 'linux') {
      const hour = path.join(dir, 'hour.mp3');
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        ...SOURCE(3600),
        '-ac',
        '1',
        '-ar',
        '22050',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '48k',
        hour,
      ]);
      figures.push(await engineOnAnHour(hour, 'wasm'), await engineOnAnHour(hour, 'system'));
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A 1-hour mp3 uploaded to a server whose engine uses the WebAssembly (or the system) ffmpeg: the engine's peak RSS. */
export async function engineOnAnHour(file: string, tools: 'wasm' | 'system'): Promise<Figure> {
  const dataDir = await tempDir('speech-bench-ffmpeg-data-');
  const cli = await startCli(
    ['--port', '0', '--data-dir', dataDir],
    tools === 'wasm' ? { SPEECH_STUDIO_FFMPEG: 'wasm' } : {},
  );
  const pid = cli.child.pid!;
  let peak = 0;
  const watch = setInterval(() => {
    void childrenOf(pid).then((engines) => {
      for (const engine of engines) peak = Math.max(peak, rssMb(engine, true) ?? 0);
    });
  }, 100);
  try {
    // A model that loads no weights: the job fails after decoding, which is the step measured.
    await installSyntheticWhisper(dataDir);
    const started = performance.now();
    const res = await uploadMultipart(
      `${cli.base}/stt/jobs`,
      { language: 'en' },
      { source: file, filename: 'hour.mp3' },
    );
    if (res.status !== 200) throw new Error(`The 1-hour upload was refused: ${res.body.toString().slice(0, 300)}`);
    const id = (res.json() as { id: string }).id;
    let job: { status: string; phase?: string | null };
    // The job shows `loading_model` while the engine starts, then `decoding`, then its next step.
    let decoding = false;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = (await (await fetch(`${cli.base}/jobs/${id}`)).json()) as typeof job;
      for (const engine of await childrenOf(pid)) peak = Math.max(peak, rssMb(engine, true) ?? 0);
      decoding ||= job.phase === 'decoding';
    } while (!['succeeded', 'failed', 'cancelled'].includes(job.status) && (!decoding || job.phase === 'decoding'));
    const took = (performance.now() - started) / 1000;
    if (job.status === 'failed') throw new Error(`The 1-hour job failed: ${JSON.stringify(job)}`);
    // Past decoding: the synthetic model would now transcribe an hour of noise.
    await fetch(`${cli.base}/jobs/${id}/cancel`, { method: 'POST' });
    return figure(
      'ffmpeg',
      `engine RSS peak decoding a 1-hour mp3 on ${tools === 'wasm' ? 'WebAssembly' : 'the system ffmpeg'}`,
      peak,
      'MB',
      undefined,
      `uploaded and decoded in ${took.toFixed(0)} s; the 16 kHz samples alone are 110 MB`,
    );
  } finally {
    clearInterval(watch);
    cli.child.kill('SIGTERM');
    await cli.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
