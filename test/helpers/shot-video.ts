/**
 * A video with hard cuts at known frames, made by ffmpeg from its test sources (testsrc, smptebars, a flat
 * colour, testsrc2) joined end to end, with a tone as its sound: what the shot-change tests detect.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SHOT_VIDEO_FPS = 24;
/** Each shot's length in frames; the cuts fall on the frames where a shot begins. */
export const SHOT_FRAMES = [48, 36, 24, 48] as const;
/** The first frame of each new shot: 48, 84, 108. */
export const CUT_FRAMES = SHOT_FRAMES.slice(0, -1).map((_, i) =>
  SHOT_FRAMES.slice(0, i + 1).reduce((a, b) => a + b, 0),
);
export const CUT_SECONDS = CUT_FRAMES.map((frame) => frame / SHOT_VIDEO_FPS);

/** Writes the video (H.264 in MP4, 160×120, AAC tone) to `file`. */
export async function makeShotVideo(
  file: string,
  ffmpeg = process.env.SPEECH_STUDIO_FFMPEG || 'ffmpeg',
): Promise<void> {
  const sources = ['testsrc', 'smptebars', 'color=c=red', 'testsrc2'];
  const inputs = SHOT_FRAMES.flatMap((frames, i) => [
    '-f',
    'lavfi',
    '-i',
    `${sources[i]}${sources[i].includes('=') ? ':' : '='}size=160x120:rate=${SHOT_VIDEO_FPS}:duration=${frames / SHOT_VIDEO_FPS}`,
  ]);
  const seconds = SHOT_FRAMES.reduce((a, b) => a + b, 0) / SHOT_VIDEO_FPS;
  const tone = ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=16000:duration=${seconds}`];
  const joined = `${SHOT_FRAMES.map((_, i) => `[${i}:v]`).join('')}concat=n=${SHOT_FRAMES.length}:v=1:a=0,format=yuv420p[v]`;
  await run(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...inputs,
    ...tone,
    '-filter_complex',
    joined,
    '-map',
    '[v]',
    '-map',
    `${SHOT_FRAMES.length}:a`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    '-shortest',
    file,
  ]);
}
