/**
 * What a door that waited for a job answers when the job did not succeed: one rule for every door (the
 * OpenAI door, MCP), mapped to each door's wire shape by its one error mapping.
 */
import { ApiError, invalidRequest } from '../contract/errors';
import { jobKindOf } from './kinds';
import type { JobRecord } from './types';

/**
 * The job when it succeeded; otherwise the registry error its end means. A file the decoder cannot read is
 * the client's mistake (INVALID_REQUEST naming `file`); any other end is the server's (INTERNAL_ERROR).
 * @example const done = succeededJob(await waitForJobEnd(jobs, id));
 */
export function succeededJob(job: JobRecord): JobRecord {
  if (job.status === 'succeeded') return job;
  if (job.status === 'failed' && job.phase === 'decoding')
    throw invalidRequest(`file: ${job.error ?? 'could not be decoded'}`);
  const label = jobKindOf(job.kind).noun;
  const ending =
    job.status === 'failed'
      ? `failed: ${(job.error ?? 'for an unknown reason').replace(/\.$/, '')}`
      : `was ${job.status}`;
  throw new ApiError('INTERNAL_ERROR', `The ${label} job ${job.id} ${ending}.`);
}
