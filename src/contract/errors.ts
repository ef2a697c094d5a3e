/**
 * The one error registry, fastify-style: every failure a client can see is one of these codes, with its
 * HTTP status (and headers, e.g. Retry-After). The core (jobs, admission, uploads) throws `ApiError`s or
 * subclasses of it; each door maps them once to its wire shape (docs/core-rules.md).
 */
export const ERROR_STATUS = {
  AUTH_REQUIRED: 401,
  INVALID_API_KEY: 401,
  ENTITLEMENT_REQUIRED: 402,
  ORIGIN_NOT_ALLOWED: 403,
  HOST_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  OUTPUT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  MODEL_NOT_INSTALLED: 409,
  VOICE_NOT_READY: 409,
  JOB_NOT_COMPLETED: 409,
  WRONG_JOB_KIND: 409,
  FILE_TOO_LARGE: 413,
  RANGE_NOT_SATISFIABLE: 416,
  HEADERS_TOO_LARGE: 431,
  INVALID_REQUEST: 422,
  JOB_NOT_ACTIVE: 422,
  QUEUE_FULL: 429,
  INTERNAL_ERROR: 500,
  ENGINE_UNAVAILABLE: 503,
  LOCAL_API_DISABLED: 503,
  // (B) Remote API (the relay, src/relay/): never thrown by the Local API.
  INSUFFICIENT_CREDITS: 402,
  INSUFFICIENT_SCOPE: 403,
  DEVICE_NOT_ALLOWED: 403,
  CSRF_REJECTED: 403,
  STORAGE_QUOTA_EXCEEDED: 413,
  RATE_LIMITED: 429,
  CONCURRENCY_LIMIT: 429,
  DEVICE_OFFLINE: 503,
  NO_CAPABLE_DEVICE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; feature?: string; [extra: string]: unknown };
}

export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { feature?: string; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
    this.headers = extra.headers ?? {};
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, message: this.message } };
    if (this.extra.feature !== undefined) body.error.feature = this.extra.feature;
    // Extra members the contract puts inside `error`, e.g. `maxConcurrentJobs` of CONCURRENCY_LIMIT.
    if (this.extra.details) Object.assign(body.error, this.extra.details, { code: this.code, message: this.message });
    return body;
  }
}

/**
 * A thrown value as a registry error: registry errors as they are, a full disk as INTERNAL_ERROR with a
 * sentence that says what to do; undefined for anything unexpected (the door logs it and answers 500).
 */
export function registryErrorOf(thrown: unknown): ApiError | undefined {
  if (thrown instanceof ApiError) return thrown;
  const code = (thrown as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return diskFull();
  return undefined;
}

/** The disk of the data directory is full: the request could not be stored. */
export const diskFull = (): ApiError =>
  new ApiError('INTERNAL_ERROR', `The disk of Speech Studio's data directory is full, so the request could not be stored. Free some space and try again.`);

export const invalidRequest = (message: string): ApiError => new ApiError('INVALID_REQUEST', message);

export const jobNotFound = (id: string): ApiError =>
  new ApiError('JOB_NOT_FOUND', `No job with id ${JSON.stringify(id.slice(0, 64))} was created through the Local API.`);
