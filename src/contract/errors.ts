/**
 * The one error registry, fastify-style: every failure a client or user can see is one of these codes, with
 * its HTTP status (and headers, e.g. Retry-After). The core (jobs, admission, uploads, models, voices) throws
 * `ApiError`s or subclasses of it; each door maps them once to its wire shape (docs/core-rules.md).
 * `ERROR_STATUS` holds the codes of the HTTP APIs (the OpenAPI document lists exactly these);
 * `LOCAL_ERROR_STATUS` the codes only the CLI, the editor and the live door show.
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

/**
 * (C) Codes the HTTP APIs never answer with: installing models (`ModelError`), voices of your own
 * (`OwnVoiceError`), refusals of local-only jobs, and the live session cap. The CLI and the editor show their
 * messages and act on their codes; the status says what kind of failure it is, should a door ever carry one.
 */
export const LOCAL_ERROR_STATUS = {
  // Models (src/models/model-error.ts)
  UNKNOWN_MODEL: 404,
  NOT_INSTALLED: 409,
  INVALID_CATALOG: 500,
  INVALID_MANIFEST: 422,
  CANCELLED: 409,
  HTTP_ERROR: 502,
  TOO_MANY_REDIRECTS: 502,
  REDIRECT_LOOP: 502,
  PROXY_ERROR: 502,
  NETWORK: 502,
  UNREACHABLE: 504,
  SIZE_MISMATCH: 502,
  CHECKSUM_MISMATCH: 502,
  NO_SPACE: 507,
  ALREADY_INSTALLING: 409,
  IMPORT_FAILED: 422,
  // Voices of your own (src/voices/own-voices.ts); a missing voice is the API's NOT_FOUND
  INVALID_NAME: 422,
  NAME_TAKEN: 409,
  NO_CONSENT: 422,
  ZIPVOICE_NOT_INSTALLED: 409,
  NO_RECOGNIZER: 409,
  INVALID_MIX: 422,
  // The live session cap, under the name the Realtime protocol gives it on the wire (src/realtime/door.ts)
  session_limit_reached: 429,
} as const;

/** A code of the HTTP APIs: what the OpenAPI document lists and an HTTP error body carries. */
export type ErrorCode = keyof typeof ERROR_STATUS;
export type LocalErrorCode = keyof typeof LOCAL_ERROR_STATUS;
/** Any code of the registry, of the HTTP APIs or local. */
export type RegistryCode = ErrorCode | LocalErrorCode;

const STATUS_OF: Record<RegistryCode, number> = { ...ERROR_STATUS, ...LOCAL_ERROR_STATUS };

/** Every code of the registry, of the HTTP APIs and local. */
export const REGISTRY_CODES = Object.keys(STATUS_OF) as RegistryCode[];

export interface ErrorBody {
  error: { code: RegistryCode; message: string; feature?: string; [extra: string]: unknown };
}

export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: RegistryCode,
    message: string,
    readonly extra: { feature?: string; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = STATUS_OF[code];
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

/** Whether a thrown value is a registry error with one of these codes: how a door acts on a code. */
export const hasCode = (thrown: unknown, ...codes: RegistryCode[]): thrown is ApiError =>
  thrown instanceof ApiError && codes.includes(thrown.code);

/** The disk of the data directory is full: the request could not be stored. */
export const diskFull = (): ApiError =>
  new ApiError(
    'INTERNAL_ERROR',
    `The disk of Speech Studio's data directory is full, so the request could not be stored. Free some space and try again.`,
  );

export const invalidRequest = (message: string): ApiError => new ApiError('INVALID_REQUEST', message);

export const jobNotFound = (id: string): ApiError =>
  new ApiError('JOB_NOT_FOUND', `No job with id ${JSON.stringify(id.slice(0, 64))} was created through the Local API.`);
