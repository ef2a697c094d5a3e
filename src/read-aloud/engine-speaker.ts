/**
 * Read Aloud's synthesizer: speak tasks run in an engine child process at interactive priority, one at a time
 * (the engine scheduler's interactive lane, jobs/engine-scheduler.ts). A sentence that became stale (the reader
 * jumped) is withdrawn if it has not started; one already in the engine finishes and is ignored, because
 * aborting it would end the warm engine process. A sentence still running past its time limit is stopped (its
 * process ends) and fails readably, so one stuck sentence can never hold the interactive lane, and with it
 * every later reading.
 */
import { randomUUID } from 'node:crypto';
import type { LexiconEntry } from '../contract/types';
import type { SpeakTask, SpokenSentence, SsmlTaskMarkup, TaskOutcome } from '../engine-api/protocol';
import { EngineCancelledError, type EngineRunOptions } from '../jobs/engine-host';
import { entriesIn } from '../lexicon/apply-lexicon';
import type { TtsVoiceRef } from '../voices/voice-ref';
import type { SentenceAudio, Synthesize } from './reading-session';

export interface SpeakingEngine {
  run(jobId: string, task: SpeakTask, options: EngineRunOptions): Promise<TaskOutcome<SpokenSentence>>;
}

/** How long one sentence may take in the engine: a minute, or two seconds a word for a long one (a cold neural voice loads its model first). */
export function sentenceTimeLimitMs(text: string): number {
  return Math.max(60_000, 2_000 * text.split(/\s+/).filter(Boolean).length);
}

export class SentenceTimeLimitError extends Error {
  constructor(readonly limitMs: number) {
    super(`Speaking one sentence took more than ${Math.round(limitMs / 1000)} s, so the engine was stopped.`);
    this.name = 'SentenceTimeLimitError';
  }
}

export class SentenceSkippedError extends Error {
  constructor() {
    super('The sentence was skipped.');
    this.name = 'SentenceSkippedError';
  }
}

/**
 * A Synthesize that speaks with `voice` in the engine process, applying the lexicon entries found in each
 * sentence; a function is asked for the lexicon at each sentence (the editor re-reads it when its file changes).
 * An SSML part is spoken by its markup, with the voices and audio files `ssmlMarkup` admitted for its source
 * (the same admission as the other doors: src/jobs/ssml-admission.ts).
 */
export function engineSynthesizer(
  engine: SpeakingEngine,
  voice: TtsVoiceRef,
  lexicon: readonly LexiconEntry[] | (() => readonly LexiconEntry[]) = [],
  ssmlMarkup?: (source: string) => Promise<SsmlTaskMarkup>,
  /** The voice a cast names (an id or name), resolved; undefined: read with `voice`. */
  castVoice: (name: string) => TtsVoiceRef | undefined = () => undefined,
  timeLimitMs: (text: string) => number = sentenceTimeLimitMs,
): Synthesize {
  return async (text, speed, signal, sentence): Promise<SentenceAudio> => {
    if (signal.aborted) throw new SentenceSkippedError();
    const entries = entriesIn(text, typeof lexicon === 'function' ? lexicon() : lexicon);
    const part = sentence?.ssml;
    if (part && !ssmlMarkup) throw new TypeError('Expected a way to admit SSML markup for an SSML part');
    const ssml =
      part && ssmlMarkup
        ? { source: part.source, from: part.from, to: part.to, markup: await ssmlMarkup(part.source) }
        : undefined;
    if (signal.aborted) throw new SentenceSkippedError();
    const named = sentence?.voice;
    const spokenBy = (named !== undefined ? castVoice(named) : undefined) ?? voice;
    const task: SpeakTask = {
      kind: 'speak',
      text,
      voice: spokenBy,
      speed,
      ...(entries.length ? { lexicon: entries } : {}),
      ...(ssml ? { ssml } : {}),
    };
    const limitMs = timeLimitMs(text);
    const overTime = new AbortController();
    const timer = setTimeout(() => overTime.abort(), limitMs);
    try {
      const { result } = await engine.run(`read-aloud-${randomUUID()}`, task, {
        signal: overTime.signal,
        withdrawSignal: signal,
        onProgress: () => undefined,
      });
      return result;
    } catch (error) {
      if (error instanceof EngineCancelledError && overTime.signal.aborted) throw new SentenceTimeLimitError(limitMs);
      if (error instanceof EngineCancelledError && signal.aborted) throw new SentenceSkippedError();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}
