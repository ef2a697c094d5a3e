/**
 * Dub of a generated video (ffmpeg's testsrc with the two-speaker recording looped, DUB_BENCH_SECONDS long,
 * default 600: the 10-minute video of the issue) through the job core and the engine, as `cli.js dub` runs
 * it: transcribed by the random whisper model with the synthetic diarization models, translated by the tiny
 * random GGUF, spoken by espeak-ng, mixed and muxed. Prints the wall time of each stage and the whole dub as
 * a ratio to a reference measured in the same run (ffmpeg decoding the video's audio to 16 kHz PCM), with the
 * load average. No targets: random models make the stage times plumbing figures, not quality ones.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';
import { openCliJobCore } from '../src/host/cli-job-core';
import { createDubJob, finishDubJob } from '../src/jobs/dub-job';
import { silentLogger } from '../src/util/log';
import { installDiarizationModels } from '../test/helpers/diarization-models';
import { makeLongTalkingVideo } from '../test/helpers/dub-video';
import { linkSyntheticWhisper } from '../test/helpers/test-models';
import { TINY_LLM_NAME, tinyLlmModel } from '../test/helpers/tiny-llm';
import { figure, type Figure } from './report';

const run = promisify(execFile);

export async function runDubBench(): Promise<Figure[]> {
  const seconds = Number(process.env.DUB_BENCH_SECONDS ?? 600);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-dub-'));
  try {
    const dataDir = path.join(dir, 'data');
    await mkdir(path.join(dataDir, 'models', 'llm'), { recursive: true });
    await copyFile(await tinyLlmModel(), path.join(dataDir, 'models', 'llm', TINY_LLM_NAME));
    await linkSyntheticWhisper(dataDir);
    await installDiarizationModels(dataDir);
    const video = path.join(dir, 'talk.mp4');
    await makeLongTalkingVideo(video, seconds);
    const referenceStarted = performance.now();
    await run(process.env.SPEECH_STUDIO_FFMPEG || 'ffmpeg', [
      '-v',
      'error',
      '-i',
      video,
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-f',
      's16le',
      '-y',
      path.join(dir, 'reference.pcm'),
    ]);
    const referenceSeconds = (performance.now() - referenceStarted) / 1000;
    const core = await openCliJobCore({
      dataDir,
      log: silentLogger,
      engineConfig: engineConfigFromEnvironment(),
      engineWorkerPath: path.join(__dirname, '..', 'dist', 'engine-worker.js'),
    });
    try {
      const started = performance.now();
      const job = await createDubJob(core.jobs, dataDir, core.voices, {
        origin: 'cli',
        input: video,
        out: path.join(dir, 'talk.de.mp4'),
        to: 'de',
      });
      const { job: ended, result } = await finishDubJob(core.jobs, job);
      if (!result) throw new Error(`The dub ended ${ended.status}: ${ended.error}`);
      const wall = (performance.now() - started) / 1000;
      const load = `load ${os.loadavg()[0].toFixed(2)}, ${seconds} s video, ${result.cues} cues, ${result.speakers.length} speakers`;
      const stages = Object.entries(result.stageSeconds).map(([stage, value]) =>
        figure('dub', `${stage} (wall)`, value, 's', undefined, load),
      );
      return [
        ...stages,
        figure('dub', 'whole dub (wall)', wall, 's', undefined, load),
        figure(
          'dub',
          'whole dub ÷ decoding its audio with ffmpeg',
          wall / referenceSeconds,
          '×',
          undefined,
          `reference ${referenceSeconds.toFixed(2)} s; ${load}`,
        ),
        figure('dub', 'whole dub ÷ video length', wall / seconds, '×', undefined, load),
      ];
    } finally {
      await core.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
