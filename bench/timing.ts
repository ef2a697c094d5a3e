/**
 * Word timing against the truth: espeak-ng speaks a paragraph and its word events say where each word
 * starts (the end is where that word's sound stops before the next one starts); the paragraph goes through
 * runSttTask (VAD on, as installed products run) and the median distance between recognized and true word
 * boundaries (starts and ends together) is printed. Target with a real base model: < 80 ms.
 * `SPEECH_STUDIO_BENCH_MODEL=<ggml file>` names the model; without it the synthetic random-weight model
 * runs, whose words match nothing: its figure (each boundary against the nearest true one) is meaningless.
 */
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SttOptions } from '../src/contract/types';
import { concatSamples } from '../src/engine/audio/samples';
import { WavWriter } from '../src/engine/audio/wav-writer';
import { runSttTask } from '../src/engine/stt/run-stt';
import { openEspeakVoice } from '../src/engine/tts/synthesizers/espeak';
import type { Transcript } from '../src/subtitles/types';
import { testModel } from '../test/helpers/test-models';
import { figure, median, type Figure } from './report';

const PARAGRAPH =
  'And so, my fellow Americans, ask not what your country can do for you. Ask what you can do for your country. ' +
  'Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do. ' +
  'Once or twice she had peeped into the book her sister was reading.';
const OPTIONS: SttOptions = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' };
const FRAME_SECONDS = 0.01;
// A frame is sound when its RMS is within 40 dB of the loudest frame's.
const SOUND_RATIO = 0.01;

interface TimedWord {
  text: string;
  start: number;
  end: number;
}

/** The paragraph's audio and its true word times: espeak's word starts, trimmed to where sound is. */
async function speakWithTruth(text: string): Promise<{ samples: Int16Array; sampleRate: number; words: TimedWord[] }> {
  const voice = await openEspeakVoice('gmw/en-US', 175);
  const spoken = voice.synthesizeWords(text);
  const samples = concatSamples(spoken.samples);
  const { sampleRate } = voice;
  const frame = Math.round(FRAME_SECONDS * sampleRate);
  const energy: number[] = [];
  for (let at = 0; at < samples.length; at += frame) {
    let sum = 0;
    const to = Math.min(samples.length, at + frame);
    for (let i = at; i < to; i++) sum += samples[i] * samples[i];
    energy.push(Math.sqrt(sum / Math.max(1, to - at)));
  }
  const threshold = Math.max(...energy) * SOUND_RATIO;
  const words = spoken.words.map((word, i) => {
    const from = Math.floor(word.startSeconds / FRAME_SECONDS);
    const next = spoken.words[i + 1];
    const to = next ? Math.floor(next.startSeconds / FRAME_SECONDS) : energy.length;
    let first = from;
    while (first < to - 1 && energy[first] < threshold) first++;
    let last = to - 1;
    while (last > first && energy[last] < threshold) last--;
    return { text: word.text, start: first * FRAME_SECONDS, end: (last + 1) * FRAME_SECONDS };
  });
  return { samples, sampleRate, words };
}

const normalize = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');

/** Pairs of (recognized, true) words with the same text, in order (longest common subsequence). */
function alignByText(recognized: readonly TimedWord[], truth: readonly TimedWord[]): Array<[TimedWord, TimedWord]> {
  const a = recognized.map((w) => normalize(w.text));
  const b = truth.map((w) => normalize(w.text));
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] && a[i] !== '' ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const pairs: Array<[TimedWord, TimedWord]> = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j] && a[i] !== '') pairs.push([recognized[i++], truth[j++]]);
    else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** Boundary errors in ms: of matched words, else (nothing matched) of each boundary to the nearest true one. */
export function boundaryErrors(
  recognized: readonly TimedWord[],
  truth: readonly TimedWord[],
): { errorsMs: number[]; matched: number } {
  const pairs = alignByText(recognized, truth);
  if (pairs.length > 0) {
    const errorsMs = pairs.flatMap(([r, t]) => [Math.abs(r.start - t.start) * 1000, Math.abs(r.end - t.end) * 1000]);
    return { errorsMs, matched: pairs.length };
  }
  const nearest = (seconds: number, edges: number[]): number =>
    Math.min(...edges.map((edge) => Math.abs(edge - seconds))) * 1000;
  const starts = truth.map((w) => w.start);
  const ends = truth.map((w) => w.end);
  return { errorsMs: recognized.flatMap((w) => [nearest(w.start, starts), nearest(w.end, ends)]), matched: 0 };
}

export async function runTimingBench(): Promise<Figure[]> {
  const real = process.env.SPEECH_STUDIO_BENCH_MODEL;
  const model = real ? path.resolve(real) : testModel('whisper', 'ggml-synthetic-random.bin');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-timing-'));
  try {
    const whisperDir = path.join(dataDir, 'models', 'whisper');
    await mkdir(whisperDir, { recursive: true });
    await mkdir(path.join(dataDir, 'models', 'vad'));
    await symlink(model, path.join(whisperDir, path.basename(model)));
    await symlink(
      testModel('vad', 'ggml-silero-v6.2.0.bin'),
      path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );

    const spoken = await speakWithTruth(PARAGRAPH);
    const inputPath = path.join(dataDir, 'paragraph.wav');
    const wav = await WavWriter.create(inputPath, { sampleRate: spoken.sampleRate, channels: 1 });
    await wav.write(spoken.samples);
    await wav.close();

    const workDir = path.join(dataDir, 'job');
    await mkdir(workDir);
    const task = {
      kind: 'stt' as const,
      inputPath,
      workDir,
      modelPath: path.join(whisperDir, path.basename(model)),
      options: OPTIONS,
    };
    await runSttTask(task, () => undefined);
    const transcript = JSON.parse(await readFile(path.join(workDir, 'transcript.json'), 'utf8')) as Transcript;
    const words = transcript.segments.flatMap((segment) => segment.words);
    const { errorsMs, matched } = boundaryErrors(words, spoken.words);
    const synthetic = real === undefined;
    const detail = [
      `${path.basename(model)}, espeak-ng paragraph of ${spoken.words.length} words (${(spoken.samples.length / spoken.sampleRate).toFixed(1)} s)`,
      `${matched} words matched by text, word timing ${transcript.wordTiming ?? 'estimated'}`,
      ...(synthetic
        ? [
            'synthetic random-weight model: MEANINGLESS (each boundary against the nearest true one, no target applied); set SPEECH_STUDIO_BENCH_MODEL to a real ggml model, target < 80 ms',
          ]
        : []),
    ].join('; ');
    const value = errorsMs.length > 0 ? median(errorsMs) : Number.NaN;
    const target = synthetic ? undefined : { kind: 'max' as const, value: 80 };
    if (process.env.BENCH_VERBOSE)
      console.log(spoken.words.map((w) => `${w.text}@${w.start.toFixed(2)}-${w.end.toFixed(2)}`).join(' '));
    return [figure('timing', 'median word-boundary error against espeak-ng word events', value, 'ms', target, detail)];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
