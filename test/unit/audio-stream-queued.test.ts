import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it, mock } from 'node:test';
import { JobEndedError, tailJobOutput } from '../../src/openai/audio-stream';
import type { JobService } from '../../src/jobs/job-service';
import type { JobRecord } from '../../src/jobs/types';

describe('tailJobOutput while the job waits in the queue', () => {
  it('waits for the job to change instead of looking at the file system every 20 ms', async () => {
    let job = { id: 'job-1', kind: 'tts', status: 'queued', error: null } as unknown as JobRecord;
    const events = new EventEmitter();
    const jobs = Object.assign(events, {
      get: () => job,
      files: {
        finishedOutputFile: () => 'output.mp3',
        file: (_id: string, name: string) => `/nonexistent-speech-studio-test/${name}`,
      },
    }) as unknown as JobService;
    const timers = mock.method(globalThis, 'setTimeout');
    try {
      const reading = tailJobOutput(jobs, 'job-1').next();
      // Until the stream has looked for the file and waits for the job (fs calls finish on the thread pool).
      for (let i = 0; events.listenerCount('change') === 0; i += 1) {
        assert.ok(i < 100_000, 'the stream never waited for the job');
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(timers.mock.callCount(), 0, 'no poll timer while queued');
      job = { ...job, status: 'failed', error: 'cancelled before it started' };
      events.emit('change', job);
      await assert.rejects(reading, JobEndedError);
    } finally {
      timers.mock.restore();
    }
  });
});
