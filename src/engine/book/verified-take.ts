/**
 * Verified takes: a paragraph is synthesized, heard back (hear-take.ts) and, while its word error rate is
 * over the threshold, synthesized again with other settings, up to the allowed retakes; the best take is
 * kept and the others deleted. The test hook (`corruptFirstTake`, which the entries hand to admission; see
 * src/config/test-hooks.ts) cuts every first take to its first third (words missing, as a
 * synthesizer that stopped early), so the mechanism can be tested with any voice.
 */
import { readFile, rm } from 'node:fs/promises';
import type { BookVerify, TakeScore } from '../../audiobook/book-plan';
import { readWavSamples } from '../../audio/wav-reader';
import { WavWriter } from '../audio/wav-writer';
import { hearTake } from './hear-take';

/** The speed of each take, relative to the reading's: the first as asked, then slower and faster in turn. */
const SPEED_VARIATIONS = [1, 0.9, 1.1, 0.85, 1.15];

/** The speed of take `take` (1-based) for a reading whose own speed is `speed`. */
export function takeSpeed(speed: number, take: number): number {
  return Math.round(speed * SPEED_VARIATIONS[(take - 1) % SPEED_VARIATIONS.length] * 1000) / 1000;
}

export interface VerifiedTake {
  wav: string;
  takes: TakeScore[];
  kept: number;
  passed: boolean;
  /** Why the paragraph could not be judged, when it could not (one take, kept). */
  unjudged?: string;
}

/**
 * Takes of `text` until one is within the threshold or the retakes are spent. `synthesize(take, speed)`
 * writes a take's WAV and answers its path (a different file per take).
 */
export async function verifiedTake(
  text: string,
  verify: BookVerify,
  synthesize: (take: number, speed: number) => Promise<string>,
  readingSpeed: number,
): Promise<VerifiedTake> {
  const takes: TakeScore[] = [];
  const files: string[] = [];
  for (let take = 1; take <= verify.retakes + 1; take++) {
    const speed = takeSpeed(readingSpeed, take);
    const wav = await synthesize(take, speed);
    files.push(wav);
    if (take === 1 && verify.corruptFirstTake) await keepFirstThird(wav);
    const heard = await hearTake(verify.scorer, wav, text);
    if (heard.unjudged) return { wav, takes: [], kept: 1, passed: true, unjudged: heard.unjudged };
    takes.push({ take, wer: heard.wer, speed, heard: heard.heard });
    if (heard.wer <= verify.threshold) break;
  }
  const best = takes.reduce((kept, take) => (take.wer < kept.wer ? take : kept));
  await Promise.all(files.filter((_, index) => index !== best.take - 1).map((file) => rm(file, { force: true })));
  return { wav: files[best.take - 1], takes, kept: best.take, passed: best.wer <= verify.threshold };
}

/** The test hook's damage: the take keeps only its first third. */
async function keepFirstThird(wav: string): Promise<void> {
  const { info, samples } = readWavSamples(await readFile(wav));
  const channels = info.channels === 2 ? 2 : 1;
  const frames = Math.floor(samples.length / channels / 3);
  const writer = await WavWriter.create(wav, { sampleRate: info.sampleRate, channels });
  try {
    await writer.write(samples.subarray(0, frames * channels));
  } finally {
    await writer.close();
  }
}
