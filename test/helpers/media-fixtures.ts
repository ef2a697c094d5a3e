import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The container/codec pairs the STT upload accepts, as ffmpeg output arguments. */
export const AUDIO_FORMATS = {
  wav: ['-c:a', 'pcm_s16le'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k'],
  flac: ['-c:a', 'flac'],
  ogg: ['-c:a', 'libvorbis'],
  aac: ['-c:a', 'aac', '-f', 'adts'],
  m4a: ['-c:a', 'aac'],
  mp4: ['-c:a', 'aac'],
  webm: ['-c:a', 'libopus'],
} as const;

export type AudioFormat = keyof typeof AUDIO_FORMATS;

async function ffmpeg(args: readonly string[]): Promise<void> {
  await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
}

/** Re-encodes `source` into `<dir>/<name>.<format>`. */
export async function encodeAudio(source: string, dir: string, format: AudioFormat, name = 'input'): Promise<string> {
  const output = path.join(dir, `${name}.${format}`);
  await ffmpeg(['-i', source, ...AUDIO_FORMATS[format], output]);
  return output;
}

/** An MP4 with a small colour video track and `source` as its audio. */
export async function encodeVideoWithAudio(source: string, dir: string): Promise<string> {
  const output = path.join(dir, 'with-video.mp4');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=64x64:r=10',
    '-i',
    source,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c:v',
    'mpeg4',
    '-c:a',
    'aac',
    '-shortest',
    output,
  ]);
  return output;
}

/** An MP4 with a video track and no audio at all. */
export async function encodeVideoWithoutAudio(dir: string): Promise<string> {
  const output = path.join(dir, 'no-audio.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=64x64:r=10:d=2', '-c:v', 'mpeg4', output]);
  return output;
}

/** A valid 16 kHz mono 16-bit WAV header with no samples. */
export async function writeEmptyWav(dir: string): Promise<string> {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(0, 40);
  const output = path.join(dir, 'empty.wav');
  await writeFile(output, header);
  return output;
}
