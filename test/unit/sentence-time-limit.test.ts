/**
 * Read Aloud's bound on one sentence: a sentence that never comes back from the engine is stopped at its time
 * limit and fails readably, instead of holding the interactive lane (and every later reading) for ever.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SpeakTask } from '../../src/engine-api/protocol';
import { EngineCancelledError, type EngineRunOptions } from '../../src/jobs/engine-host';
import { taskPlace } from '../../src/jobs/task-places';
import {
  engineSynthesizer,
  SentenceSkippedError,
  SentenceTimeLimitError,
  sentenceTimeLimitMs,
  type SpeakingEngine,
} from '../../src/read-aloud/engine-speaker';

const espeak = {
  engine: 'espeak-ng',
  engineVoiceId: 'gmw/en-US',
  languageCode: 'en-US',
  name: 'English (America)',
} as const;

/** An engine whose sentence never finishes: it only ends when the run's signal stops it, as a killed process does. */
function stuckEngine(runs: EngineRunOptions[], tasks: SpeakTask[] = []): SpeakingEngine {
  return {
    run: (_jobId: string, task: SpeakTask, options: EngineRunOptions) => {
      runs.push(options);
      tasks.push(task);
      return new Promise((_resolve, reject) =>
        options.signal.addEventListener('abort', () => reject(new EngineCancelledError()), { once: true }),
      );
    },
  };
}

describe('a sentence past its time limit', () => {
  it('is stopped and fails with a sentence that says so', async () => {
    const runs: EngineRunOptions[] = [];
    const tasks: SpeakTask[] = [];
    const synthesize = engineSynthesizer(
      stuckEngine(runs, tasks),
      espeak,
      [],
      undefined,
      () => undefined,
      () => 30,
    );
    await assert.rejects(
      synthesize('A sentence that never comes back.', 1, new AbortController().signal),
      (error: unknown) => {
        assert.ok(error instanceof SentenceTimeLimitError);
        assert.match(error.message, /took more than 0 s, so the engine was stopped/);
        return true;
      },
    );
    assert.equal(runs.length, 1);
    assert.equal(runs[0].signal.aborted, true, 'the run was stopped, which ends its engine process');
    assert.equal(taskPlace(tasks[0]).lane, 'interactive', 'a sentence waits in the interactive lane, by its kind');
  });

  it('is still a skip, not a failure, when the reader moved on first', async () => {
    const reader = new AbortController();
    const engine: SpeakingEngine = {
      run: (_jobId, _task, options) =>
        new Promise((_resolve, reject) =>
          options.withdrawSignal?.addEventListener('abort', () => reject(new EngineCancelledError()), { once: true }),
        ),
    };
    const spoken = engineSynthesizer(
      engine,
      espeak,
      [],
      undefined,
      () => undefined,
      () => 60_000,
    )('Skipped while it waits.', 1, reader.signal);
    reader.abort();
    await assert.rejects(spoken, SentenceSkippedError);
  });

  it('gives a long sentence more time than a short one, and every sentence at least a minute', () => {
    assert.equal(sentenceTimeLimitMs('Short.'), 60_000);
    assert.equal(sentenceTimeLimitMs(Array.from({ length: 50 }, () => 'word').join(' ')), 100_000);
  });
});
