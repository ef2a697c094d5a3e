/**
 * Rules about jobs that every door shares (the Local API, the relay): the name a TTS job gets from its
 * text, and when a job's results may be read.
 */
import { ApiError } from './errors';

const NAME_MAX = 60;

/**
 * A TTS job's name: its text on one line, cut to 60 characters with an ellipsis. It cuts between code
 * points, never inside a surrogate pair (an emoji stays whole or goes).
 * @example
 * jobNameFromText('Hello\n  world') // 'Hello world'
 */
export function jobNameFromText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const characters = Array.from(line);
  return characters.length > NAME_MAX ? `${characters.slice(0, NAME_MAX - 3).join('')}…` : line || 'Speech';
}

/** Audio is read from a succeeded TTS job, a transcript from a succeeded STT job: 409 otherwise. */
export function requireSucceeded(job: { kind: 'tts' | 'stt'; status: string }, kind: 'tts' | 'stt'): void {
  if (job.kind !== kind) {
    throw new ApiError('WRONG_JOB_KIND', kind === 'tts'
      ? 'This is a speech-to-text job: fetch its transcript, not an audio output.'
      : 'This is a text-to-speech job: fetch its audio output, not a transcript.');
  }
  if (job.status !== 'succeeded') {
    throw new ApiError('JOB_NOT_COMPLETED', `The job is ${job.status}; results exist only once it has succeeded.`);
  }
}
