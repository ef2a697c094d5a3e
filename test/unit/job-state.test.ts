import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canTransition, IllegalTransitionError, transition } from '../../src/jobs/state';
import { JOB_STATUSES } from '../../src/contract/openapi';
import type { JobRecord } from '../../src/jobs/types';

const job = (status: JobRecord['status']): JobRecord => ({
  id: 'j', name: 'n', kind: 'tts', status, progress: 40, phase: 'synthesizing', backend: null, result: null, error: null,
  createdAt: 1, startedAt: null, finishedAt: null, origin: 'api', outputFile: null,
  input: { kind: 'tts', characters: 1, options: {} as never, voice: { engine: 'espeak-ng', engineVoiceId: 'en', languageCode: 'en' } },
});

describe('job state machine', () => {
  it('allows exactly the moves of docs/decisions.md', () => {
    const allowed = JOB_STATUSES.flatMap((from) => JOB_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`));
    assert.deepEqual(allowed.sort(), [
      'loading_model>cancelled', 'loading_model>failed', 'loading_model>interrupted', 'loading_model>processing',
      'processing>cancelled', 'processing>failed', 'processing>interrupted', 'processing>succeeded',
      'queued>cancelled', 'queued>failed', 'queued>loading_model',
    ]);
  });

  it('never changes a terminal state again', () => {
    for (const terminal of ['succeeded', 'failed', 'cancelled', 'interrupted'] as const) {
      for (const to of JOB_STATUSES) assert.throws(() => transition(job(terminal), to), IllegalTransitionError);
    }
  });

  it('stamps startedAt on loading_model, finishedAt and progress 100 on success', () => {
    const started = transition(job('queued'), 'loading_model', {}, 1000);
    assert.equal(started.startedAt, 1000);
    assert.equal(started.phase, 'loading_model');
    const succeeded = transition(job('processing'), 'succeeded', {}, 2000);
    assert.deepEqual([succeeded.finishedAt, succeeded.progress, succeeded.phase], [2000, 100, 'done']);
    const failed = transition(job('processing'), 'failed', { error: 'x' }, 3000);
    assert.deepEqual([failed.finishedAt, failed.progress, failed.error], [3000, 40, 'x']);
  });
});
