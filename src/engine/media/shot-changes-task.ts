/**
 * The engine's shot-change task: where a video cuts to another shot, by ffmpeg's scene score (`select` with
 * `gt(scene,T)`, each picked frame named by `showinfo`), with the video's frame rate from ffprobe. The job core
 * caches the answer (src/jobs/shot-changes.ts); this runs only for a file not seen before.
 */
import { isAbsolute } from 'node:path';
import {
  stopIfAskedToYield,
  UserFacingError,
  type ProgressReporter,
  type ShotChangesResult,
  type ShotChangesTask,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { findMediaTools, firstErrorLine, runTool } from './ffmpeg';

export const SHOT_CHANGES_BACKEND = 'ffmpeg';

/** Scene scores compare whole frames; a smaller copy of each scores hard cuts the same and costs far less. */
const ANALYSIS_WIDTH = 320;

/** The task as it may run, or a sentence saying why not. */
export function checkShotChangesTask(task: Record<string, unknown>): ShotChangesTask {
  const { mediaPath, threshold } = task;
  if (typeof mediaPath !== 'string' || !isAbsolute(mediaPath))
    throw new UserFacingError('Shot changes need the absolute path of the video file.');
  if (typeof threshold !== 'number' || !(threshold > 0 && threshold <= 1)) {
    throw new UserFacingError(
      `The shot-change threshold must be a scene score above 0 and at most 1, got ${String(threshold)}.`,
    );
  }
  return { kind: 'shot-changes', mediaPath, threshold };
}

interface VideoProbe {
  durationSeconds: number;
  framesPerSecond: number;
}

interface FfprobeJson {
  format?: { duration?: string };
  streams?: Array<{ avg_frame_rate?: string; r_frame_rate?: string }>;
}

const rate = (text: string | undefined): number => {
  const [num, den] = (text ?? '').split('/').map(Number);
  const value = den ? num / den : num;
  return Number.isFinite(value) && value > 0 ? value : 0;
};

async function probeVideo(mediaPath: string, ffprobe: string, yieldSignal?: AbortSignal): Promise<VideoProbe> {
  const args = [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=avg_frame_rate,r_frame_rate:format=duration',
    '-of',
    'json',
    mediaPath,
  ];
  const { stdout, stderr, exitCode } = await runTool('ffprobe', ffprobe, args, yieldSignal);
  stopIfAskedToYield(yieldSignal);
  if (exitCode !== 0)
    throw new UserFacingError(`The file is not a media file ffmpeg can read: ${firstErrorLine(stderr, mediaPath)}`);
  const parsed = JSON.parse(stdout) as FfprobeJson;
  const stream = parsed.streams?.[0];
  if (!stream) throw new UserFacingError('The media file has no video, so it has no shot changes.');
  const framesPerSecond = rate(stream.avg_frame_rate) || rate(stream.r_frame_rate);
  if (!framesPerSecond)
    throw new UserFacingError(
      'The video does not say its frame rate, so frames around a shot change cannot be counted.',
    );
  const duration = Number.parseFloat(parsed.format?.duration ?? '');
  return { durationSeconds: Number.isFinite(duration) ? duration : 0, framesPerSecond };
}

/** The times `showinfo` printed for the frames `select` picked, in order. */
export function parseShowinfoTimes(stderr: string): number[] {
  const times: number[] = [];
  for (const match of stderr.matchAll(/\bn:\s*\d+\s+pts:\s*-?\d+\s+pts_time:(-?[\d.]+(?:e-?\d+)?)/g)) {
    const time = Number(match[1]);
    if (Number.isFinite(time) && time > 0) times.push(time);
  }
  return times.sort((a, b) => a - b);
}

/** Runs the task; when `yieldSignal` aborts, ffmpeg is ended and it stops with TaskYieldedError (it runs again from the start). */
export async function runShotChangesTask(
  task: ShotChangesTask,
  report: ProgressReporter,
  yieldSignal?: AbortSignal,
): Promise<TaskOutcome<ShotChangesResult>> {
  const tools = findMediaTools();
  const video = await probeVideo(task.mediaPath, tools.ffprobe, yieldSignal);
  stopIfAskedToYield(yieldSignal);
  report('decoding', 0);
  const filter = `scale='min(${ANALYSIS_WIDTH},iw)':-2,select='gt(scene,${task.threshold})',showinfo`;
  const args = [
    '-hide_banner',
    '-nostats',
    '-loglevel',
    'info',
    '-i',
    task.mediaPath,
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    '-vf',
    filter,
    '-f',
    'null',
    '-',
  ];
  const { stderr, exitCode } = await runTool('ffmpeg', tools.ffmpeg, args, yieldSignal);
  stopIfAskedToYield(yieldSignal);
  if (exitCode !== 0)
    throw new UserFacingError(
      `ffmpeg could not read the video: ${firstErrorLine(
        stderr
          .split('\n')
          .filter((line) => !/^\s|^(Input|Output|Stream)/.test(line))
          .join('\n'),
        task.mediaPath,
      )}`,
    );
  report('decoding', 100);
  return {
    backend: SHOT_CHANGES_BACKEND,
    result: {
      durationSeconds: video.durationSeconds,
      framesPerSecond: video.framesPerSecond,
      changes: parseShowinfoTimes(stderr),
    },
  };
}
