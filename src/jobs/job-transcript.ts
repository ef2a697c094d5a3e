/**
 * Reads a finished job's stored transcript, the one way every door does: a transcript that is gone, or
 * torn or edited into something that is not a transcript, is OUTPUT_NOT_FOUND with a sentence saying which,
 * never a JSON parse error that leaves a door as INTERNAL_ERROR.
 */
import { promises as fs } from 'node:fs';
import { ApiError } from '../contract/errors';
import type { Transcript } from '../subtitles/types';
import type { JobFiles } from './job-files';
import type { JobRecord } from './types';

export async function readJobTranscript(files: JobFiles, job: JobRecord): Promise<Transcript> {
  const file = job.outputFile ? files.file(job.id, job.outputFile) : undefined;
  const text = file ? await fs.readFile(file, 'utf8').catch(() => undefined) : undefined;
  if (text === undefined)
    throw new ApiError('OUTPUT_NOT_FOUND', 'The transcript of this job is gone from the data directory.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isTranscriptShape(parsed)) {
    throw new ApiError(
      'OUTPUT_NOT_FOUND',
      'The transcript of this job in the data directory is damaged (not a whole transcript); run the job again.',
    );
  }
  return parsed;
}

/** Enough of the shape that rendering cannot fail on it: text, and segments each with times and text. */
function isTranscriptShape(value: unknown): value is Transcript {
  if (typeof value !== 'object' || value === null) return false;
  const { text, segments } = value as Partial<Transcript>;
  return (
    typeof text === 'string' &&
    Array.isArray(segments) &&
    segments.every(
      (segment) =>
        typeof segment === 'object' &&
        segment !== null &&
        typeof segment.text === 'string' &&
        Number.isFinite(segment.start) &&
        Number.isFinite(segment.end),
    )
  );
}
