/** Reading TTS output back in tests: ffprobe's view of a file, decoded samples, and where speech starts. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbedAudio {
  codec: string;
  sampleRate: number;
  channels: number;
  /** Seconds, from decoding every sample (container durations of ADTS AAC are estimates). */
  decodedSeconds: number;
}

/** What ffprobe says of the file's audio stream, and its length decoded with ffmpeg. */
export async function probeAudio(file: string): Promise<ProbedAudio> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=codec_name,sample_rate,channels',
    '-of',
    'json',
    file,
  ]);
  const stream = JSON.parse(stdout).streams[0];
  const samples = await decodeMono(file, Number(stream.sample_rate));
  return {
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels,
    decodedSeconds: samples.length / Number(stream.sample_rate),
  };
}

/** The file's audio as mono 16-bit samples at `rate`, decoded by ffmpeg. */
export async function decodeMono(file: string, rate: number): Promise<Int16Array> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(rate), '-f', 's16le', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const bytes = Buffer.from(stdout);
  return new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2));
}

/** Starts (seconds) of stretches of sound separated by at least `gapSeconds` of samples at most `threshold`. */
export function soundOnsets(samples: Int16Array, rate: number, gapSeconds = 0.4, threshold = 300): number[] {
  const gap = Math.round(gapSeconds * rate);
  const onsets: number[] = [];
  let quiet = gap;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]) > threshold) {
      if (quiet >= gap) onsets.push(i / rate);
      quiet = 0;
    } else {
      quiet++;
    }
  }
  return onsets;
}

/** An SRT of `cues` as [start, end, text] in seconds. */
export function srtOf(cues: [number, number, string][]): string {
  const stamp = (t: number): string => {
    const ms = Math.round(t * 1000);
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
  };
  return cues.map(([start, end, text], i) => `${i + 1}\n${stamp(start)} --> ${stamp(end)}\n${text}\n`).join('\n');
}
