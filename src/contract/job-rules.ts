/**
 * Rules about jobs that every door shares (the Local API, the relay): when a job's results may be read.
 * (A job's name comes from src/jobs/job-name.ts.)
 */
import { ApiError } from './errors';

/** Audio is read from a succeeded TTS job, a transcript from a succeeded STT job: 409 otherwise. */
export function requireSucceeded(job: { kind: string; status: string }, kind: 'tts' | 'stt'): void {
  if (job.kind !== kind) {
    throw new ApiError(
      'WRONG_JOB_KIND',
      kind === 'tts'
        ? 'This is a speech-to-text job: fetch its transcript, not an audio output.'
        : 'This is a text-to-speech job: fetch its audio output, not a transcript.',
    );
  }
  if (job.status !== 'succeeded') {
    throw new ApiError('JOB_NOT_COMPLETED', `The job is ${job.status}; results exist only once it has succeeded.`);
  }
}
