/**
 * The video the dub tests and the bench dub: ffmpeg's `testsrc` picture with a real two-speaker recording as
 * its sound (MPEG-4 + AAC in MP4), and what ffprobe says of a dubbed copy (its streams, the MD5 of the video
 * packets, the container's duration).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testModel } from './test-models';

const run = promisify(execFile);
const ffmpeg = (): string => process.env.SPEECH_STUDIO_FFMPEG || 'ffmpeg';
const ffprobe = (): string => process.env.SPEECH_STUDIO_FFPROBE || 'ffprobe';

/** Writes a `seconds`-long video (at most the recording's 16 s) with two people talking to `file`. */
export async function makeTalkingVideo(file: string, seconds = 16): Promise<void> {
  await run(ffmpeg(), [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=160x120:rate=10:duration=${seconds}`,
    '-i',
    testModel('audio', 'multispeaker', '1-two-speakers-en.wav'),
    '-t',
    String(seconds),
    '-c:v',
    'mpeg4',
    '-q:v',
    '8',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    file,
  ]);
}

/** A video made of `clip` repeated to `seconds` (the bench's long video). */
export async function makeLongTalkingVideo(file: string, seconds: number): Promise<void> {
  await run(ffmpeg(), [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=160x120:rate=10:duration=${seconds}`,
    '-stream_loop',
    '-1',
    '-i',
    testModel('audio', 'multispeaker', '1-two-speakers-en.wav'),
    '-t',
    String(seconds),
    '-c:v',
    'mpeg4',
    '-q:v',
    '8',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    file,
  ]);
}

export interface ProbedStream {
  index: number;
  codecType: string;
  codecName: string;
  language: string | undefined;
  isDefault: boolean;
}

export interface ProbedVideo {
  durationSeconds: number;
  streams: ProbedStream[];
  /** MD5 of the video stream's packets, as ffmpeg's md5 muxer computes it over a stream copy. */
  videoPacketsMd5: string;
}

export async function probeVideoFile(file: string): Promise<ProbedVideo> {
  const { stdout } = await run(ffprobe(), [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=index,codec_type,codec_name:stream_tags=language:stream_disposition=default',
    '-of',
    'json',
    file,
  ]);
  const found = JSON.parse(stdout) as {
    format: { duration: string };
    streams: Array<{
      index: number;
      codec_type: string;
      codec_name: string;
      tags?: { language?: string };
      disposition?: { default?: number };
    }>;
  };
  const md5 = await run(ffmpeg(), ['-v', 'error', '-i', file, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-']);
  return {
    durationSeconds: Number(found.format.duration),
    streams: found.streams.map((stream) => ({
      index: stream.index,
      codecType: stream.codec_type,
      codecName: stream.codec_name,
      language: stream.tags?.language,
      isDefault: stream.disposition?.default === 1,
    })),
    videoPacketsMd5: md5.stdout.trim(),
  };
}
