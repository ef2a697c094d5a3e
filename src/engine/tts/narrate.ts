/**
 * Subtitle narration: each cue is spoken by its voice, trimmed to its speech, and laid on the timeline at
 * its cue's start (see cue-fitting.ts for what happens when it does not fit). The recording lasts until the
 * last cue ends, or until the last speech ends when that overran.
 */
import type { TtsCueReport } from '../../contract/types';
import type { SubtitleCue } from '../../subtitles/parse';
import { createFastResampler } from '../../audio/simd-resample-kernel';
import { concatSamples } from '../audio/samples';
import { firstAudibleIndex } from '../audio/silence-trimmer';
import { fitLength, stretchClip } from '../audio/time-stretch';
import { fitCue } from './cue-fitting';
import { CHUNK_PAUSE_SECONDS } from './record-text';
import type { SpeechEngine } from './synthesizers/synthesizer';
import type { SpeechRecorder } from './speech-recorder';
import { splitIntoChunks } from './text-chunks';

/** Silence kept before and after each cue's speech: enough not to clip an onset, small enough to be on time. */
const CUE_MARGIN_SECONDS = 0.01;

/** One cue's report in the job result (the contract's type). */
export type CueReport = TtsCueReport;

export interface NarrationOptions {
  speed: number;
  /** Text as it will be spoken (normalized or not), per cue. */
  spokenText(cue: SubtitleCue): string;
  /** The engine for a cue's speaker (the job's voice when the speaker has none of its own). */
  engineFor(speaker: string | undefined): Promise<SpeechEngine>;
  onCue(done: number): void;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The speech of one cue at the timeline's rate, without leading or trailing silence. */
async function speakCue(text: string, engine: SpeechEngine, timelineRate: number, speed: number): Promise<Int16Array> {
  const pause = new Int16Array(Math.round((engine.sampleRate * CHUNK_PAUSE_SECONDS) / speed));
  const parts: Int16Array[] = [];
  for (const [index, chunk] of splitIntoChunks(text).entries()) {
    if (index > 0) parts.push(pause);
    parts.push(await engine.synthesize(chunk));
  }
  let samples = concatSamples(parts);
  if (!engine.nativeSpeed && speed !== 1) samples = await stretchClip(samples, engine.sampleRate, speed);
  if (engine.sampleRate !== timelineRate) {
    const resampler = createFastResampler(engine.sampleRate, timelineRate);
    samples = concatSamples([resampler.process(samples), resampler.flush()]);
  }
  const first = firstAudibleIndex(samples);
  if (first < 0) return new Int16Array(0);
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]) <= 100) last--;
  const margin = Math.round(timelineRate * CUE_MARGIN_SECONDS);
  return samples.slice(Math.max(0, first - margin), Math.min(samples.length, last + 1 + margin));
}

export async function recordNarration(
  cues: readonly SubtitleCue[],
  recorder: SpeechRecorder,
  options: NarrationOptions,
): Promise<CueReport[]> {
  const rate = recorder.sampleRate;
  const maxSpeedFactor = Math.max(1, 2 / options.speed);
  const reports: CueReport[] = [];
  let cursor = 0;
  for (const [i, cue] of cues.entries()) {
    const next = cues[i + 1];
    const text = options.spokenText(cue);
    const speech = text
      ? await speakCue(text, await options.engineFor(cue.speaker), rate, options.speed)
      : new Int16Array(0);
    const speechSeconds = speech.length / rate;
    const slot = { start: cue.start, end: cue.end, nextStart: next?.start };
    const placement = fitCue(slot, speechSeconds, cursor, maxSpeedFactor);
    if (speech.length > 0) {
      let placed = speech;
      if (placement.speedFactor > 1) {
        placed = fitLength(
          await stretchClip(speech, rate, placement.speedFactor),
          Math.round(placement.seconds * rate),
        );
      }
      // The margin goes before the cue time, so the first audible sample lands on it.
      const margin = Math.round(rate * CUE_MARGIN_SECONDS);
      await recorder.padTo(Math.max(recorder.length, Math.round(placement.at * rate) - margin));
      await recorder.write(placed);
      cursor = recorder.length / rate;
    }
    reports.push({
      index: cue.index,
      start: cue.start,
      end: cue.end,
      speaker: cue.speaker ?? null,
      slotSeconds: round3(cue.end - cue.start),
      speechSeconds: round3(speechSeconds),
      speedFactor: round3(placement.speedFactor),
      placedStart: round3(speech.length > 0 ? placement.at : cue.start),
      placedEnd: round3(speech.length > 0 ? placement.at + placement.seconds : cue.start),
      borrowedSeconds: round3(placement.borrowedSeconds),
      overran: speech.length > 0 && placement.overran,
      overrunSeconds: round3(speech.length > 0 ? placement.overrunSeconds : 0),
    });
    options.onCue(i + 1);
  }
  const lastEnd = Math.max(...cues.map((cue) => cue.end));
  await recorder.padTo(Math.max(lastEnd * rate, recorder.length));
  return reports;
}
