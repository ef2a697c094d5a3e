/**
 * ACX (Audible) mastering of an audiobook chapter and its compliance report. ACX refuses files outside its
 * rules: RMS between −23 and −18 dB, peaks at or under −3 dB, a noise floor at or under −60 dB, 0.5–1 s of
 * room tone at the head and 1–5 s at the tail, 44.1 kHz CBR MP3 at 192 kbps. Mastering sets the gain from
 * the chapter's measured RMS, limits the peaks, pads room tone (a faint noise, not digital silence, which
 * ACX's reviewers reject) and encodes; the report measures the finished file again with ffmpeg's own
 * `astats` and `ebur128`, so it says what the file is, not what mastering meant it to be.
 */
import { spawn } from 'node:child_process';
import { toolNotFoundError } from '../media/ffmpeg';
import { isWasmMedia, mediaToolchain } from '../media/media-toolchain';
import { startWasmFfmpeg } from '../media/wasm-ffmpeg';
import { UserFacingError } from '../../engine-api/protocol';
import type { AcxReport, AudioMeasurement } from '../../audiobook/book-plan';
import { ENCODING, runFfmpeg } from './book-audio';

export const ACX_RULES = {
  rmsMinDb: -23,
  rmsMaxDb: -18,
  truePeakMaxDb: -3,
  noiseFloorMaxDb: -60,
  headToneSeconds: [0.5, 1],
  tailToneSeconds: [1, 5],
  sampleRate: 44_100,
  bitrateKbps: 192,
} as const;

const rmsComplies = (rmsDb: number): boolean => rmsDb >= ACX_RULES.rmsMinDb && rmsDb <= ACX_RULES.rmsMaxDb;

/** Where mastering aims: the middle of the RMS window, peaks limited with room for the MP3 encoder's overshoot. */
const TARGET_RMS_DB = -20.5;
const LIMIT_DB = -4;
const HEAD_TONE_SECONDS = 0.75;
const TAIL_TONE_SECONDS = 2;
/** The room tone's level: audible to a meter, far under ACX's −60 dB noise floor. */
const ROOM_TONE_AMPLITUDE = 0.0002;

/** Runs ffmpeg reading `input` and returns what it printed on stderr (where its analysis filters write). */
async function ffmpegAnalysis(input: string, args: (input: string) => string[]): Promise<string> {
  const tools = mediaToolchain();
  if (isWasmMedia(tools)) {
    const run = await startWasmFfmpeg({
      program: 'ffmpeg',
      args: args('/in/0'),
      inputs: [input],
      textInputs: [],
      outputs: [],
    });
    const { code, stderr } = await run.done;
    if (code !== 0)
      throw new UserFacingError(`ffmpeg could not measure ${input}: ${stderr.trim().split('\n').pop() ?? code}`);
    return stderr;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(tools.ffmpeg, args(input), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? toolNotFoundError('ffmpeg') : error),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve(stderr)
        : reject(new UserFacingError(`ffmpeg could not measure ${input}: ${stderr.trim().split('\n').pop() ?? code}`)),
    );
  });
}

/** A level from ffmpeg's output ("RMS level dB: -20.1", "Peak: -3.2 dBFS"); -inf for digital silence. */
function level(stderr: string, pattern: RegExp, what: string): number {
  const match = pattern.exec(stderr);
  if (!match) throw new UserFacingError(`ffmpeg did not report the ${what} of the audio.`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}

/** RMS, sample peak, true peak and noise floor of an audio file, as ffmpeg measures them. */
export async function measureAudio(file: string): Promise<AudioMeasurement> {
  const stderr = await ffmpegAnalysis(file, (input) => [
    '-hide_banner',
    '-nostats',
    '-i',
    input,
    '-af',
    'astats=measure_overall=RMS_level+Peak_level+Noise_floor:measure_perchannel=none,ebur128=peak=true:framelog=verbose',
    '-f',
    'null',
    '-',
  ]);
  const overall = stderr.slice(stderr.lastIndexOf('Overall'));
  return {
    rmsDb: level(overall, /RMS level dB: (-?inf|-?[\d.]+)/, 'RMS level'),
    peakDb: level(overall, /Peak level dB: (-?inf|-?[\d.]+)/, 'peak level'),
    noiseFloorDb: level(overall, /Noise floor dB: (-?inf|-?[\d.]+)/, 'noise floor'),
    truePeakDb: level(stderr.slice(stderr.lastIndexOf('True peak:')), /Peak:\s+(-?inf|-?[\d.]+) dBFS/, 'true peak'),
  };
}

/** The rules a measured file breaks, each as a sentence. */
export function acxProblems(measured: AudioMeasurement): string[] {
  const problems: string[] = [];
  const db = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} dB` : 'silence');
  if (!rmsComplies(measured.rmsDb)) {
    problems.push(`RMS is ${db(measured.rmsDb)}, outside ${ACX_RULES.rmsMinDb} to ${ACX_RULES.rmsMaxDb} dB.`);
  }
  if (measured.truePeakDb > ACX_RULES.truePeakMaxDb)
    problems.push(`The true peak is ${db(measured.truePeakDb)}, over ${ACX_RULES.truePeakMaxDb} dB.`);
  if (measured.noiseFloorDb > ACX_RULES.noiseFloorMaxDb) {
    problems.push(
      `The noise floor is ${db(measured.noiseFloorDb)}, over ${ACX_RULES.noiseFloorMaxDb} dB: the recording is noisy between words.`,
    );
  }
  return problems;
}

/**
 * Masters a chapter's WAV into an ACX MP3 at `mp3` and reports on the result. A chapter with no sound at
 * all cannot comply and says so rather than being amplified into noise. With `m4a`, the same mastered
 * sound (gain, limit, room tone) is also encoded as the M4B's AAC chapter, in the same ffmpeg run.
 */
export async function masterChapterForAcx(wav: string, mp3: string, scratch: string, m4a?: string): Promise<AcxReport> {
  const before = await measureAudio(wav);
  if (!Number.isFinite(before.rmsDb)) {
    return {
      file: mp3,
      measured: before,
      headToneSeconds: 0,
      tailToneSeconds: 0,
      complies: false,
      problems: ['The chapter is silent: there is nothing to master.'],
    };
  }
  let measured = await masterWithGain(wav, mp3, scratch, m4a, TARGET_RMS_DB - before.rmsDb);
  // The room tone and the limiter lower the finished file's RMS, most in a short chapter (a 6 s title card
  // came out at −23.4 dB): measured out of the window, it is mastered once more with the gain corrected.
  if (Number.isFinite(measured.rmsDb) && !rmsComplies(measured.rmsDb)) {
    const corrected = TARGET_RMS_DB - before.rmsDb + (TARGET_RMS_DB - measured.rmsDb);
    measured = await masterWithGain(wav, mp3, scratch, m4a, corrected);
  }
  const problems = acxProblems(measured);
  return {
    file: mp3,
    measured,
    headToneSeconds: HEAD_TONE_SECONDS,
    tailToneSeconds: TAIL_TONE_SECONDS,
    complies: problems.length === 0,
    problems,
  };
}

/** Gain, limit, room tone and encoding in one ffmpeg run; what the finished MP3 measures. */
async function masterWithGain(
  wav: string,
  mp3: string,
  scratch: string,
  m4a: string | undefined,
  gainDb: number,
): Promise<AudioMeasurement> {
  const limit = 10 ** (LIMIT_DB / 20);
  const headMs = Math.round(HEAD_TONE_SECONDS * 1000);
  const speech = `[0:a]aresample=${ACX_RULES.sampleRate},volume=${gainDb.toFixed(2)}dB,alimiter=limit=${limit.toFixed(4)}:level=0:attack=1:release=50,adelay=${headMs}:all=1,apad=pad_dur=${TAIL_TONE_SECONDS}[speech]`;
  const tone = `anoisesrc=color=brown:amplitude=${ROOM_TONE_AMPLITUDE}:sample_rate=${ACX_RULES.sampleRate}[tone]`;
  const mixed = `${speech};${tone};[speech][tone]amix=inputs=2:duration=first:normalize=0`;
  const asMp3 = (label: string, output: string): string[] => [
    '-map',
    label,
    '-ac',
    '1',
    '-ar',
    String(ACX_RULES.sampleRate),
    '-c:a',
    'libmp3lame',
    '-b:a',
    `${ACX_RULES.bitrateKbps}k`,
    '-f',
    'mp3',
    output,
  ];
  await runFfmpeg(
    { inputs: [wav], outputs: m4a ? [mp3, m4a] : [mp3] },
    (names) => [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      names.input(0),
      ...(m4a
        ? [
            '-filter_complex',
            `${mixed},asplit=2[out][book]`,
            ...asMp3('[out]', names.output(0)),
            '-map',
            '[book]',
            '-ac',
            '1',
            '-ar',
            String(ACX_RULES.sampleRate),
            ...ENCODING.m4b.codec,
            names.output(1),
          ]
        : ['-filter_complex', `${mixed}[out]`, ...asMp3('[out]', names.output(0))]),
    ],
    scratch,
  );
  return measureAudio(mp3);
}
