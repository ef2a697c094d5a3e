/**
 * Where each word the engine reported starts in the recording a TTS task makes of plain text: the engine's
 * own word times (relative to each synthesis call) placed on the stream of samples sent to the speech front,
 * then moved by the leading silence the front trims, so they are times in the finished audio.
 */
import type { SpokenWord } from '../../audiobook/read-along/word-clips';
import { firstAudibleIndex, SILENCE_MARGIN_SECONDS } from '../audio/silence-trimmer';

export class WordClock {
  private samples = 0;
  private firstAudible = -1;
  private readonly words: SpokenWord[] = [];

  /** `sampleRate` is the engine's: the clock counts the samples before any resampling. */
  constructor(private readonly sampleRate: number) {}

  /** Seconds of samples sent so far: where the next synthesis call's samples begin. */
  get seconds(): number {
    return this.samples / this.sampleRate;
  }

  /** Samples on their way to the front, in order (pauses included). */
  sent(samples: Int16Array): void {
    if (this.firstAudible < 0) {
      const first = firstAudibleIndex(samples);
      if (first >= 0) this.firstAudible = this.samples + first;
    }
    this.samples += samples.length;
  }

  /** A word the engine reported `seconds` into the audio of a call that began at `callStart` seconds. */
  word(text: string, callStart: number, seconds: number): void {
    this.words.push({ text, seconds: callStart + seconds });
  }

  /**
   * The words' starts in the finished audio. The silence trimmer keeps SILENCE_MARGIN_SECONDS before the
   * first sound and drops what came earlier, so every time moves back by what it dropped.
   */
  times(trimSilence: boolean): SpokenWord[] {
    const margin = Math.round(this.sampleRate * SILENCE_MARGIN_SECONDS);
    const cut = trimSilence && this.firstAudible > margin ? (this.firstAudible - margin) / this.sampleRate : 0;
    return this.words.map((word) => ({ text: word.text, seconds: Math.max(0, word.seconds - cut) }));
  }
}
