/**
 * The alignment stress set (issue #39), built at set-up from the shared real clips, never committed:
 * different utterances of three voices in turns — the HiFi-TTS reader, JFK, and a third "reader" made by
 * playing HiFi-TTS clips that no other turn uses 12 % slower (deeper, slower) — at different levels, with
 * gaps of 20–60 ms beside pauses of 150–450 ms inside a turn and 0.6–1.2 s between turns, over a −60 dBFS
 * floor. No clip is used twice. The truth is where each clip was placed (one clip = one script line).
 * Conditions put a bed under it (music-like, pink noise at 10 or 20 dB SNR), media the script lacks (36 s
 * of other, untranscribed voices), script lines the media lacks (two paragraphs) or re-time a drifted SRT.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { testModel } from '../test-models';
import {
  RATE,
  atLevel,
  mixAtSnr,
  musicBed,
  pinkNoise,
  readClip,
  seeded,
  slowDown,
  trimSilence,
  writeClip,
} from './sounds';

export const STRESS_CONDITIONS = [
  'clean',
  'music-10db',
  'pink-10db',
  'pink-20db',
  'script-lacks-36s',
  'unspoken-paragraphs',
  'drifted-srt',
] as const;
export type StressCondition = (typeof STRESS_CONDITIONS)[number];

export interface StressSentence {
  start: number;
  end: number;
  text: string;
}

export interface StressSet {
  mediaPath: string;
  seconds: number;
  script: string;
  format: 'txt' | 'srt';
  /** Every line spoken, with where its clip was placed. */
  truth: StressSentence[];
  /** Script lines the media does not have: they must come back not found. */
  unspoken: string[];
}

/** Two paragraphs written for this set (nobody in the media says them). */
export const UNSPOKEN_PARAGRAPHS = [
  'The harbour lights were already burning when the last of the boats came round the point, and the men on the quay stopped talking to watch it come in.',
  'Nobody in the village could remember who had planted the row of chestnut trees along the mill road, though everyone agreed they had always been there.',
];
const JFK_TEXT =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const THIRD_VOICE_SLOWER = 1.12;
const FLOOR_DBFS = -60;

interface Clip {
  samples: Float32Array;
  text: string;
}

async function hifittsClips(): Promise<Clip[]> {
  const manifest = await readFile(testModel('audio', 'hifitts-6097', 'manifest.jsonl'), 'utf8');
  const entries = manifest
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { audio_filepath: string; text_no_preprocessing: string });
  return Promise.all(
    entries.map(async (entry) => ({
      samples: trimSilence(await readClip(testModel('audio', 'hifitts-6097', entry.audio_filepath))),
      text: entry.text_no_preprocessing,
    })),
  );
}

/** Turns of 2–5 clips, the two HiFi-TTS voices alternating, JFK's one turn after the third. */
async function turns(clipCount: number, random: () => number): Promise<Clip[][]> {
  const all = await hifittsClips();
  // A deterministic shuffle, so neighbouring lines are not from the same book.
  for (let i = all.length - 1; i > 0; i--) {
    const k = Math.floor(random() * (i + 1));
    [all[i], all[k]] = [all[k], all[i]];
  }
  const clips = all.slice(0, Math.min(all.length, clipCount));
  const result: Clip[][] = [];
  let voice = 0;
  let at = 0;
  while (at < clips.length) {
    const size = Math.min(clips.length - at, 2 + Math.floor(random() * 4));
    const turn = clips
      .slice(at, at + size)
      .map((clip) =>
        voice === 0
          ? { ...clip, samples: atLevel(clip.samples, -22) }
          : { ...clip, samples: atLevel(slowDown(clip.samples, THIRD_VOICE_SLOWER), -29) },
      );
    result.push(turn);
    at += size;
    voice = 1 - voice;
    if (result.length === 3) {
      const jfk = trimSilence(await readClip(testModel('audio', 'jfk.wav')));
      result.push([{ samples: atLevel(jfk, -19), text: JFK_TEXT }]);
    }
  }
  return result;
}

/** Speech the script lacks: other voices (alice, a two-speaker clip), about 36 s, no transcript. */
async function untranscribed(): Promise<Float32Array[]> {
  return [
    atLevel(trimSilence(await readClip(testModel('audio', 'alice-sample-16k.wav'))), -24),
    atLevel(trimSilence(await readClip(testModel('audio', 'multispeaker', '1-two-speakers-en.wav'))), -24),
  ];
}

const srtTime = (seconds: number): string => {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width: number): string => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3600000), 2)}:${pad(Math.floor(ms / 60000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)},${pad(ms % 1000, 3)}`;
};

/**
 * Builds one condition into `dir` (the media as stress.wav). `clipCount` bounds the HiFi-TTS clips used
 * (58 at most, about 3.5 min in all with JFK): fewer make a short set for tests.
 */
export async function buildStressSet(dir: string, condition: StressCondition, clipCount = 58): Promise<StressSet> {
  const random = seeded(39);
  const plan = await turns(clipCount, random);
  // A piece is speech (with its script line, or none for speech the script lacks) or a gap in seconds.
  const pieces: Array<{ samples: Float32Array; text: string | null } | number> = [0.5];
  const lacksAfter = condition === 'script-lacks-36s' ? Math.floor(plan.length / 2) : -1;
  const extra = lacksAfter >= 0 ? await untranscribed() : [];
  plan.forEach((turn, t) => {
    turn.forEach((clip, c) => {
      pieces.push(clip);
      const last = c === turn.length - 1;
      pieces.push(last ? 0.6 + random() * 0.6 : random() < 0.35 ? 0.02 + random() * 0.04 : 0.15 + random() * 0.3);
    });
    if (t === lacksAfter) for (const other of extra) pieces.push({ samples: other, text: null }, 0.8);
  });
  const total = pieces.reduce<number>(
    (sum, piece) => sum + (typeof piece === 'number' ? Math.round(piece * RATE) : piece.samples.length),
    0,
  );
  let media: Float32Array = new Float32Array(total);
  const mask = new Uint8Array(total);
  const floor = seeded(7);
  for (let i = 0; i < total; i++) media[i] = (floor() * 2 - 1) * 10 ** (FLOOR_DBFS / 20) * Math.sqrt(3);
  const truth: StressSentence[] = [];
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === 'number') {
      at += Math.round(piece * RATE);
      continue;
    }
    media.set(
      piece.samples.map((s, i) => s + media[at + i]),
      at,
    );
    mask.fill(1, at, at + piece.samples.length);
    if (piece.text !== null)
      truth.push({ start: at / RATE, end: (at + piece.samples.length) / RATE, text: piece.text });
    at += piece.samples.length;
  }
  if (condition === 'music-10db') media = mixAtSnr(media, musicBed(total, 11), mask, 10);
  if (condition === 'pink-10db') media = mixAtSnr(media, pinkNoise(total, 13), mask, 10);
  if (condition === 'pink-20db') media = mixAtSnr(media, pinkNoise(total, 17), mask, 20);
  const mediaPath = path.join(dir, 'stress.wav');
  await writeClip(mediaPath, media);

  let lines = truth.map((sentence) => sentence.text);
  let unspoken: string[] = [];
  if (condition === 'unspoken-paragraphs') {
    const third = Math.floor(lines.length / 3);
    lines = [
      ...lines.slice(0, third),
      UNSPOKEN_PARAGRAPHS[0],
      ...lines.slice(third, 2 * third),
      UNSPOKEN_PARAGRAPHS[1],
      ...lines.slice(2 * third),
    ];
    unspoken = [...UNSPOKEN_PARAGRAPHS];
  }
  if (condition === 'drifted-srt') {
    // Shifted by 0.8 s and drifting 1.5 % (a file timed for another cut or frame rate).
    const drift = (time: number): number => 0.8 + time * 1.015;
    const script = truth
      .map((s, i) => `${i + 1}\n${srtTime(drift(s.start))} --> ${srtTime(drift(s.end))}\n${s.text}\n`)
      .join('\n');
    return { mediaPath, seconds: total / RATE, script, format: 'srt', truth, unspoken };
  }
  return { mediaPath, seconds: total / RATE, script: `${lines.join('\n')}\n`, format: 'txt', truth, unspoken };
}
