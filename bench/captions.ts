/**
 * `npm run bench -- captions`: live captions into a file at real time (`cli.js captions --input`, ffmpeg
 * reading two real recordings at their pace, the synthetic whisper model, real Silero VAD). For each cue: the
 * moment its line appeared (the CLI prints it once the cue is in the file) less the moment its last word was
 * heard in real time (the run's start plus the cue's end). Target ≤ 3 s on two cores with the test model; with
 * SPEECH_STUDIO_BENCH_REALTIME_MODEL (a real whisper model) the same figure for that model.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { testModel } from '../test/helpers/test-models';
import { makeTwoRecordings } from '../test/helpers/two-recordings';
import { REALTIME_MODEL_ENV } from './realtime';
import { figure, median } from './report';

const CLI = path.resolve(__dirname, '..', 'dist', 'cli.js');

export async function runCaptionsBench(): Promise<unknown> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-captions-'));
  try {
    const dataDir = path.join(dir, 'data');
    await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
    await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
    const model = process.env[REALTIME_MODEL_ENV] || testModel('whisper/ggml-synthetic-random.bin');
    await symlink(path.resolve(model), path.join(dataDir, 'models', 'whisper', path.basename(model)));
    await copyFile(
      testModel('vad/ggml-silero-v6.2.0.bin'),
      path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );
    const talk = path.join(dir, 'talk.wav');
    await makeTwoRecordings(talk);
    const lags: number[] = [];
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [CLI, 'captions', '--input', talk, '--out', path.join(dir, 'live.srt'), '--data-dir', dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // Cue times count from the first audio, which the CLI announces with "Listening." on stderr.
    let readingFrom = started;
    child.stderr.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Listening.')) readingFrom = performance.now();
    });
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const now = performance.now();
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const end = Number(/^[\d.]+–([\d.]+) /.exec(line)?.[1]);
        if (Number.isFinite(end)) lags.push((now - (readingFrom + end * 1000)) / 1000);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0 || lags.length === 0) throw new Error(`captions ended ${code} with ${lags.length} cues`);
    const load = `load ${os.loadavg()[0].toFixed(2)}`;
    return [
      figure(
        'captions',
        `end of an utterance → its cue in the file, at real time (${path.basename(model)}, p50 of ${lags.length} cues)`,
        median(lags),
        's',
        { kind: 'max', value: 3 },
        `worst ${Math.max(...lags).toFixed(2)} s; 28.5 s of two real recordings; ${os.availableParallelism()} cores; ${load}`,
      ),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
