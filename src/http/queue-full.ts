import type { QueueFullError } from '../jobs/job-service';
import { ApiError } from '../contract/errors';

const RETRY_AFTER_SECONDS = 5;

export const queueFull = (error: QueueFullError): ApiError =>
  new ApiError('QUEUE_FULL', error.message, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
