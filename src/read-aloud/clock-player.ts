/**
 * A player without speakers: it "plays" each sentence for its duration on the wall clock and reports
 * like the editor's webview player does. The bench measures Read Aloud with it (time to the first audio,
 * gaps between sentences) without VS Code.
 */
import type { SentenceAudio, SentencePlayer } from './reading-session';

export interface PlayerReports {
  onPlayerStarted(index: number): void;
  onPlayerTime(index: number, seconds: number): void;
  onPlayerEnded(index: number): void;
}

interface Queued {
  index: number;
  durationMs: number;
  pauseMs: number;
}

/** When each sentence started and ended playing, in performance.now() milliseconds. */
export interface PlayedSentence {
  index: number;
  startedAt: number;
  endedAt?: number;
}

export class ClockPlayer implements SentencePlayer {
  private reports: PlayerReports | undefined;
  private readonly queue: Queued[] = [];
  private playing:
    | {
        item: Queued;
        phase: 'pause' | 'audio';
        timer: NodeJS.Timeout | undefined;
        phaseEndsAt: number;
        remainingMs: number;
      }
    | undefined;
  private paused = false;
  readonly played: PlayedSentence[] = [];

  connect(reports: PlayerReports): void {
    this.reports = reports;
  }

  enqueue(index: number, audio: SentenceAudio, pauseSeconds: number): void {
    this.queue.push({ index, durationMs: audio.durationSeconds * 1000, pauseMs: pauseSeconds * 1000 });
    this.advance();
  }

  drop(fromIndex: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].index >= fromIndex) this.queue.splice(i, 1);
    if (this.playing && this.playing.item.index >= fromIndex) {
      clearTimeout(this.playing.timer);
      this.playing = undefined;
    }
    this.advance();
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    if (this.playing) {
      clearTimeout(this.playing.timer);
      this.playing.remainingMs = Math.max(0, this.playing.phaseEndsAt - performance.now());
    }
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.playing) this.schedule(this.playing.remainingMs);
    else this.advance();
  }

  stop(): void {
    this.queue.length = 0;
    clearTimeout(this.playing?.timer);
    this.playing = undefined;
  }

  private advance(): void {
    if (this.playing || this.paused || this.queue.length === 0) return;
    const item = this.queue.shift()!;
    this.playing = { item, phase: 'pause', timer: undefined, phaseEndsAt: 0, remainingMs: item.pauseMs };
    this.schedule(item.pauseMs);
  }

  private schedule(ms: number): void {
    const playing = this.playing!;
    playing.phaseEndsAt = performance.now() + ms;
    playing.timer = setTimeout(() => this.endPhase(), ms);
  }

  private endPhase(): void {
    const playing = this.playing;
    if (!playing) return;
    if (playing.phase === 'pause') {
      playing.phase = 'audio';
      this.played.push({ index: playing.item.index, startedAt: performance.now() });
      this.schedule(playing.item.durationMs);
      this.reports?.onPlayerStarted(playing.item.index);
      return;
    }
    this.played.at(-1)!.endedAt = performance.now();
    this.playing = undefined;
    this.reports?.onPlayerEnded(playing.item.index);
    this.advance();
  }
}
