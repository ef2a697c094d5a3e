/**
 * Read Aloud's synthesizer: speak tasks run in the engine child process (jobs/engine-host.ts), one at a
 * time. A sentence that became stale (the reader jumped) is skipped if it has not started; one already in
 * the engine finishes and is ignored, because aborting it would end the warm engine process.
 */
import { randomUUID } from 'node:crypto';
import type { LexiconEntry } from '../contract/types';
import type { SpeakTask, SpokenSentence, TaskOutcome } from '../engine/protocol';
import type { EngineRunOptions } from '../jobs/engine-host';
import { entriesIn } from '../lexicon/apply-lexicon';
import type { TtsVoiceRef } from '../voices/voice-ref';
import type { SentenceAudio, Synthesize } from './reading-session';

export interface SpeakingEngine {
  run(jobId: string, task: SpeakTask, options: EngineRunOptions): Promise<TaskOutcome<SpokenSentence>>;
}

export class SentenceSkippedError extends Error {
  constructor() {
    super('The sentence was skipped.');
    this.name = 'SentenceSkippedError';
  }
}

/**
 * The last speak task sent to each engine host. Every reading queues behind it, also a new one after a stop:
 * otherwise its first sentence would find the warm process busy with a stale one and start a cold process.
 */
const lastTurn = new WeakMap<SpeakingEngine, Promise<unknown>>();

/**
 * A Synthesize that speaks with `voice` in the engine process, applying the lexicon entries found in each
 * sentence; a function is asked for the lexicon at each sentence (the editor re-reads it when its file changes).
 */
export function engineSynthesizer(engine: SpeakingEngine, voice: TtsVoiceRef, lexicon: readonly LexiconEntry[] | (() => readonly LexiconEntry[]) = []): Synthesize {
  return (text, speed, signal) => {
    const previous = lastTurn.get(engine) ?? Promise.resolve();
    const turn = previous.then(async (): Promise<SentenceAudio> => {
      if (signal.aborted) throw new SentenceSkippedError();
      const entries = entriesIn(text, typeof lexicon === 'function' ? lexicon() : lexicon);
      const task: SpeakTask = { kind: 'speak', text, voice, speed, ...(entries.length ? { lexicon: entries } : {}) };
      const { result } = await engine.run(`read-aloud-${randomUUID()}`, task, { signal: new AbortController().signal, onProgress: () => undefined });
      return result;
    });
    lastTurn.set(engine, turn.catch(() => undefined));
    return turn;
  };
}
