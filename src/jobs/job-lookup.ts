import { isUuid } from '../contract/validation';
import type { JobService } from './job-service';
import type { JobRecord } from './types';
import { jobNotFound } from '../contract/errors';

/** A job the Local API may see: created through it. Editor jobs answer 404 as if they did not exist. */
export function findApiJob(jobs: JobService, id: string): JobRecord {
  const job = isUuid(id) ? jobs.get(id.toLowerCase()) : undefined;
  if (!job || job.origin !== 'api') throw jobNotFound(id);
  return job;
}
