/**
 * Credits (docs/decisions.md): 1 credit = 1 second of audio transcribed, or 1 000 characters narrated. An
 * estimate is reserved when a job is created and settled when it ends; jobs that do not succeed cost
 * nothing. Amounts are milli-credits.
 */
import type { SttOptions } from '../../contract/types';
import type { JobRow } from '../data/jobs';

/** Uncompressed 16 kHz mono 16-bit audio, the densest common input: 32 000 bytes a second. */
const ESTIMATE_BYTES_PER_SECOND = 32_000;

export const ttsCostMilli = (characters: number): number => Math.max(1, characters);

function croppedSeconds(options: Pick<SttOptions, 'cropStartSeconds' | 'cropEndSeconds'>): number | undefined {
  return options.cropEndSeconds === undefined ? undefined : options.cropEndSeconds - (options.cropStartSeconds ?? 0);
}

/** From the upload's size: exact for 16 kHz WAV, low for compressed media, which settlement corrects. */
export function sttEstimateMilli(
  bytes: number,
  options: Pick<SttOptions, 'cropStartSeconds' | 'cropEndSeconds'>,
): number {
  const seconds = Math.max(1, bytes / ESTIMATE_BYTES_PER_SECOND);
  const cropped = croppedSeconds(options);
  return Math.ceil(1000 * (cropped === undefined ? seconds : Math.min(seconds, cropped)));
}

/** What a finished job costs. */
export function settledMilli(
  job: Pick<JobRow, 'kind' | 'status' | 'result' | 'request' | 'text' | 'credits_reserved_milli'>,
): number {
  if (job.status !== 'succeeded') return 0;
  if (job.kind === 'tts') return ttsCostMilli(job.text?.length ?? 0);
  // The result came from a device: typed, but checked, since a device could send anything.
  const duration = job.result?.durationSeconds;
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0) return job.credits_reserved_milli;
  const cropped = croppedSeconds((job.request as { options: SttOptions }).options);
  return Math.ceil(1000 * (cropped === undefined ? duration : Math.min(duration, cropped)));
}
