/**
 * One Read Aloud: the state machine (loading → playing ⇄ paused → finished or stopped) and the pipeline
 * that keeps the player a few sentences ahead: sentence N+1 is synthesized while N plays. The synthesizer
 * (the engine process) and the player (a webview, or a clock in the bench) come from outside, so the editor
 * and the bench drive the very same session.
 */
import type { ReadingSentence } from '../text/reading-sentences';
import type { VoicedSentence } from './cast-sentences';
import { wordAt, wordTimes, type TimedWord } from './word-timing';

export type ReadingState = 'loading' | 'playing' | 'paused' | 'finished' | 'stopped';

const TERMINAL: ReadonlySet<ReadingState> = new Set(['finished', 'stopped']);

/** One sentence's audio, as the speak task answers it (SpokenSentence). */
export interface SentenceAudio {
  sampleRate: number;
  /** Mono 16-bit little-endian PCM, base64. */
  pcm: string;
  durationSeconds: number;
  /** Word offsets in the sentence's text with their start times; null: estimated from the text. */
  words: { start: number; end: number; startSeconds: number }[] | null;
  /** An SSML part's: what the engine could not honour (`ssml phoneme` → why). */
  ignored?: Record<string, string>;
}

/** Plays sentences in the order they are queued, each after `pauseSeconds` of silence, and reports back (ReadingSession.onPlayer…). */
export interface SentencePlayer {
  enqueue(index: number, audio: SentenceAudio, pauseSeconds: number): void;
  /** Stops and forgets every sentence from `fromIndex` on, playing or queued. */
  drop(fromIndex: number): void;
  pause(): void;
  resume(): void;
  stop(): void;
}

/** Speaks a sentence's text; `sentence` tells an SSML part (sentence.ssml) from plain text, and carries the voice a cast gives it (src/read-aloud/cast-sentences.ts). */
export type Synthesize = (
  text: string,
  speed: number,
  signal: AbortSignal,
  sentence?: VoicedSentence,
) => Promise<SentenceAudio>;

export interface ReadingOptions {
  synthesize: Synthesize;
  player: SentencePlayer;
  speed?: number;
  /** Silence between sentences at speed 1 (shortened by the speed). */
  pauseSeconds?: number;
  /** Sentences synthesized ahead of the one playing. */
  lookahead?: number;
}

export interface ReadingEvents {
  state(state: ReadingState, error?: unknown): void;
  /** The player started this sentence. */
  sentence(index: number): void;
  /** A word of the playing sentence started (offsets in the sentence's text). */
  word(index: number, word: TimedWord): void;
  /** A sentence's audio went to the player. */
  audio(index: number, audio: SentenceAudio): void;
}

export const SPEEDS = [0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2] as const;
export const DEFAULT_PAUSE_SECONDS = 0.3;

export class ReadingSession {
  private stateNow: ReadingState = 'loading';
  private currentIndex = 0;
  /** The next sentence to synthesize and queue. */
  private nextToQueue = 0;
  private readonly queued = new Map<number, { audio: SentenceAudio; words: TimedWord[] }>();
  private busy = false;
  /** Bumped by every jump, speed change and stop: syntheses started before it are stale. */
  private generation = 0;
  private controller = new AbortController();
  private speedNow: number;
  private lastWord = -1;
  /** The player finished the current sentence and waits for the next. */
  private currentEnded = false;
  private readonly listeners: { [K in keyof ReadingEvents]: ReadingEvents[K][] } = {
    state: [],
    sentence: [],
    word: [],
    audio: [],
  };

  private sentenceList: readonly ReadingSentence[];

  constructor(
    sentences: readonly ReadingSentence[],
    private readonly options: ReadingOptions,
  ) {
    if (sentences.length === 0) throw new TypeError('Expected at least one sentence to read');
    this.sentenceList = sentences;
    this.speedNow = options.speed ?? 1;
  }

  /** The sentences read, as the last update left them. */
  get sentences(): readonly ReadingSentence[] {
    return this.sentenceList;
  }

  get state(): ReadingState {
    return this.stateNow;
  }

  /** The sentence being spoken (or about to be). */
  get current(): number {
    return this.currentIndex;
  }

  get speed(): number {
    return this.speedNow;
  }

  get isOver(): boolean {
    return TERMINAL.has(this.stateNow);
  }

  on<K extends keyof ReadingEvents>(event: K, listener: ReadingEvents[K]): () => void {
    this.listeners[event].push(listener);
    return () => {
      const list = this.listeners[event];
      list.splice(list.indexOf(listener), 1);
    };
  }

  start(index = 0): void {
    this.jump(index);
  }

  pause(): void {
    if (this.stateNow !== 'playing' && this.stateNow !== 'loading') return;
    this.options.player.pause();
    this.setState('paused');
  }

  resume(): void {
    if (this.stateNow !== 'paused') return;
    this.options.player.resume();
    this.setState(this.queued.size > 0 ? 'playing' : 'loading');
  }

  togglePause(): void {
    if (this.stateNow === 'paused') this.resume();
    else this.pause();
  }

  stop(error?: unknown): void {
    if (this.isOver) return;
    this.invalidate();
    this.options.player.stop();
    this.setState('stopped', error);
  }

  next(): void {
    if (!this.isOver) this.jump(Math.min(this.sentences.length - 1, this.currentIndex + 1));
  }

  previous(): void {
    if (!this.isOver) this.jump(Math.max(0, this.currentIndex - 1));
  }

  /** The new speed applies from the next sentence: the one playing finishes as it was made. */
  setSpeed(speed: number): void {
    if (this.isOver || speed === this.speedNow) return;
    this.speedNow = speed;
    // Also what is being made for the current sentence before it plays: it is made again at the new speed.
    this.remakeFrom(this.currentIndex + 1, true);
  }

  /**
   * The text changed (or how it is said): `sentences` replace the reading's, the same ones up to the current
   * sentence, which finishes as it was made. Audio made ahead for sentences from `remakeFrom` on is dropped
   * and made again; a reading whose last sentence played already stays over.
   */
  update(sentences: readonly ReadingSentence[], remakeFrom: number): void {
    if (this.isOver || sentences.length <= this.currentIndex) return;
    this.sentenceList = sentences;
    this.remakeFrom(Math.max(remakeFrom, this.currentIndex + 1));
  }

  /** Drops the audio made or being made for sentences from `from` on and goes on making them. */
  private remakeFrom(from: number, always = false): void {
    if (always || from < this.nextToQueue || (this.busy && from === this.nextToQueue)) {
      this.invalidate();
      this.options.player.drop(from);
      for (const index of [...this.queued.keys()]) if (index >= from) this.queued.delete(index);
      this.nextToQueue = Math.min(this.nextToQueue, from);
    }
    // The current sentence ended while the next was not made: the reading waits for it, or is over now.
    if (this.currentEnded && this.currentIndex === this.sentenceList.length - 1) {
      this.setState('finished');
      return;
    }
    this.fill();
  }

  faster(): void {
    this.setSpeed(SPEEDS.find((s) => s > this.speedNow + 1e-9) ?? this.speedNow);
  }

  slower(): void {
    this.setSpeed([...SPEEDS].reverse().find((s) => s < this.speedNow - 1e-9) ?? this.speedNow);
  }

  /** The player began sentence `index`. */
  onPlayerStarted(index: number): void {
    if (this.isOver || !this.queued.has(index)) return;
    this.currentIndex = index;
    this.currentEnded = false;
    this.lastWord = -1;
    for (const old of [...this.queued.keys()]) if (old < index) this.queued.delete(old);
    if (this.stateNow === 'loading') this.setState('playing');
    this.emit('sentence', index);
    this.onPlayerTime(index, 0);
    this.fill();
  }

  /** Where the player is in sentence `index`, in seconds. */
  onPlayerTime(index: number, seconds: number): void {
    const entry = this.queued.get(index);
    if (this.isOver || index !== this.currentIndex || !entry) return;
    const word = wordAt(entry.words, seconds);
    if (word < 0 || word === this.lastWord) return;
    this.lastWord = word;
    this.emit('word', index, entry.words[word]);
  }

  /** The player finished sentence `index`. */
  onPlayerEnded(index: number): void {
    if (this.isOver || index !== this.currentIndex) return;
    this.queued.delete(index);
    this.currentEnded = true;
    if (index === this.sentences.length - 1) {
      this.setState('finished');
      return;
    }
    // The next sentence is not ready yet: the reader waits for the engine.
    if (!this.queued.has(index + 1) && this.stateNow === 'playing') this.setState('loading');
  }

  private jump(index: number): void {
    if (this.isOver) return;
    this.invalidate();
    this.options.player.drop(0);
    this.queued.clear();
    this.currentIndex = index;
    this.currentEnded = false;
    this.nextToQueue = index;
    if (this.stateNow === 'playing') this.setState('loading');
    this.fill();
  }

  private invalidate(): void {
    this.generation++;
    this.controller.abort();
    this.controller = new AbortController();
    this.busy = false;
  }

  /** Synthesizes the next sentence when fewer than `lookahead` wait after the one playing. */
  private fill(): void {
    const lookahead = this.options.lookahead ?? 2;
    if (
      this.busy ||
      this.isOver ||
      this.nextToQueue >= this.sentences.length ||
      this.nextToQueue > this.currentIndex + lookahead
    )
      return;
    const index = this.nextToQueue;
    const generation = this.generation;
    const speed = this.speedNow;
    this.busy = true;
    const sentence = this.sentences[index];
    this.options.synthesize(sentence.text, speed, this.controller.signal, sentence).then(
      (audio) => {
        if (generation !== this.generation || this.isOver) return;
        this.busy = false;
        this.queued.set(index, { audio, words: wordTimes(sentence.text, audio) });
        this.nextToQueue = index + 1;
        // An SSML part that opens with its own break carries that silence in its audio, instead of the reader's pause.
        const pause =
          index === this.currentIndex || sentence.ssml?.startsWithPause
            ? 0
            : (this.options.pauseSeconds ?? DEFAULT_PAUSE_SECONDS) / speed;
        this.options.player.enqueue(index, audio, pause);
        this.emit('audio', index, audio);
        this.fill();
      },
      (error: unknown) => {
        if (generation !== this.generation || this.isOver) return;
        this.stop(error);
      },
    );
  }

  private setState(state: ReadingState, error?: unknown): void {
    if (this.stateNow === state) return;
    this.stateNow = state;
    this.emit('state', state, error);
  }

  private emit<K extends keyof ReadingEvents>(event: K, ...args: Parameters<ReadingEvents[K]>): void {
    for (const listener of [...this.listeners[event]])
      (listener as (...a: Parameters<ReadingEvents[K]>) => void)(...args);
  }
}
