/**
 * Where the speech is in a live session's uncommitted audio, kept across looks: each look runs VAD only over
 * the newest audio and a short stretch it has seen before (so a look costs the same at second 2 and second
 * 29 of an utterance), and its ranges replace what earlier looks said about that stretch.
 */
import type { SampleRange } from './turns';

/** A fresh VAD run joins a range that an earlier look saw running into the stretch looked at again, across a gap this short (Silero's 100 ms minimum silence). */
const JOIN = 1600;

export class SpeechTrack {
  private held: SampleRange[] = [];

  /** The speech ranges (sample indexes since the session began), in order. */
  get ranges(): readonly SampleRange[] {
    return this.held;
  }

  /** What a VAD run over `[from, to)` found (`found`: absolute sample ranges) replaces what was known from `from` on. */
  merge(from: number, found: readonly SampleRange[]): void {
    const kept: SampleRange[] = [];
    for (const range of this.held) {
      if (range.start >= from) continue;
      kept.push({ start: range.start, end: Math.min(range.end, from) });
    }
    const last = kept.at(-1);
    const fresh = found
      .filter((range) => range.end > range.start)
      .map((range) => ({ start: Math.max(range.start, from), end: range.end }));
    if (last && last.end >= from && fresh.length > 0 && fresh[0].start - from <= JOIN) {
      last.end = Math.max(last.end, fresh[0].end);
      fresh.shift();
    }
    this.held = [...kept, ...fresh];
  }

  /** Forgets speech before sample `index` (the buffer dropped it). */
  dropBefore(index: number): void {
    this.held = this.held
      .filter((range) => range.end > index)
      .map((range) => ({ start: Math.max(range.start, index), end: range.end }));
  }

  clear(): void {
    this.held = [];
  }
}
