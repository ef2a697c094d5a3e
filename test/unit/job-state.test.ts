import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canTransition, IllegalTransitionError, legalPath, transition, transitionMarks } from '../../src/jobs/state';
import { JOB_STATUSES } from '../../src/contract/openapi';
import type { JobRecord } from '../../src/jobs/types';

const job = (status: JobRecord['status']): JobRecord => ({
  id: 'j',
  name: 'n',
  kind: 'tts',
  status,
  progress: 40,
  phase: 'synthesizing',
  backend: null,
  result: null,
  error: null,
  createdAt: 1,
  startedAt: null,
  finishedAt: null,
  origin: 'api',
  outputFile: null,
  input: {
    kind: 'tts',
    characters: 1,
    options: {} as never,
    voice: { engine: 'espeak-ng', engineVoiceId: 'en', languageCode: 'en' },
  },
});

describe('job state machine', () => {
  it('allows exactly the moves of docs/decisions.md', () => {
    const allowed = JOB_STATUSES.flatMap((from) =>
      JOB_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`),
    );
    assert.deepEqual(allowed.sort(), [
      'loading_model>cancelled',
      'loading_model>failed',
      'loading_model>interrupted',
      'loading_model>processing',
      'processing>cancelled',
      'processing>failed',
      'processing>interrupted',
      'processing>succeeded',
      'queued>cancelled',
      'queued>failed',
      'queued>loading_model',
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

describe("what a move implies, for the local store and the relay's rows alike", () => {
  it('never stamps a job finished before it started, or started before it was created, when the clock went back', () => {
    const started = transition({ ...job('queued'), createdAt: 5000 }, 'loading_model', {}, 4000);
    assert.equal(started.startedAt, 5000);
    const running = transition(started, 'processing', {}, 6000);
    const ended = transition(running, 'succeeded', { outputFile: 'output.wav' }, 1000);
    assert.equal(ended.finishedAt, 5000);
    assert.ok(ended.finishedAt >= ended.startedAt!);
  });

  it('finds the shortest legal path through loading_model and processing', () => {
    assert.deepEqual(legalPath('queued', 'queued'), []);
    assert.deepEqual(legalPath('queued', 'processing'), ['loading_model', 'processing']);
    assert.deepEqual(legalPath('queued', 'succeeded'), ['loading_model', 'processing', 'succeeded']);
    assert.deepEqual(legalPath('queued', 'interrupted'), ['loading_model', 'interrupted']);
    assert.deepEqual(legalPath('queued', 'failed'), ['failed']);
    assert.equal(legalPath('succeeded', 'processing'), undefined);
  });

  it('stamps the start when a path passes loading_model, the end on a terminal state, progress 100 and done on success', () => {
    assert.deepEqual(transitionMarks(['loading_model'], undefined, 5), { startedAt: 5, phase: 'loading_model' });
    assert.deepEqual(transitionMarks(['loading_model', 'processing'], 'transcribing', 5), {
      startedAt: 5,
      phase: 'transcribing',
    });
    assert.deepEqual(transitionMarks(['processing'], 'encoding', 5), { phase: 'encoding' });
    assert.deepEqual(transitionMarks(['loading_model', 'processing', 'succeeded'], 'encoding', 7), {
      startedAt: 7,
      finishedAt: 7,
      progress: 100,
      phase: 'done',
    });
    assert.deepEqual(transitionMarks(['failed'], undefined, 9), { finishedAt: 9 });
    assert.deepEqual(transitionMarks(['cancelled'], 'decoding', 9), { finishedAt: 9, phase: 'decoding' });
    assert.deepEqual(transitionMarks([], undefined, 9), {});
  });

  it('is what transition() applies to a record', () => {
    const failed = transition(job('loading_model'), 'failed', { phase: 'decoding', error: 'bad' }, 11);
    assert.deepEqual(
      [failed.status, failed.finishedAt, failed.phase, failed.progress, failed.startedAt],
      ['failed', 11, 'decoding', 40, null],
    );
  });
});
