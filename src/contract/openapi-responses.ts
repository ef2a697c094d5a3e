/**
 * Building blocks of the OpenAPI documents' responses: the error answer, its headers, and the Local API's
 * reusable `components.responses` (statuses that many operations share, described once).
 */
import { ref } from './openapi-schemas';

export const jsonContent = <S extends object>(schema: S) => ({ 'application/json': { schema } }) as const;

/** An error answer in the spec's error body; `description` names the codes and when they happen. */
export const errorResponse = (description: string, headers?: Record<string, object>) =>
  ({ description, ...(headers ? { headers } : {}), content: jsonContent(ref('Error')) }) as const;

export const responseRef = <N extends string>(name: N) => ({ $ref: `#/components/responses/${name}` }) as const;

export const retryAfterHeader = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
} as const;

export const bearerChallengeHeader = {
  'WWW-Authenticate': { description: 'The Bearer challenge.', schema: { type: 'string' } },
} as const;

/** Statuses the Local API's middleware can answer on any operation (see src/host/app.ts). */
export const localResponses = {
  Unauthorized: errorResponse(
    'AUTH_REQUIRED or INVALID_API_KEY: authentication is on and the Bearer key is missing, wrong or regenerated.',
    bearerChallengeHeader,
  ),
  EntitlementRequired: errorResponse(
    'ENTITLEMENT_REQUIRED: the account lacks the feature named in `feature` (app_connection, tts or stt).',
  ),
  Forbidden: errorResponse(
    'ORIGIN_NOT_ALLOWED: the request came from a web page (an Origin header); HOST_NOT_ALLOWED: the Host header is not ' +
      "this machine's loopback name while the API listens on loopback (DNS rebinding).",
  ),
  RequestTimeout: errorResponse(
    'INVALID_REQUEST: the request headers or body did not arrive in time (a slow client); the connection is closed.',
  ),
  HeadersTooLarge: errorResponse('HEADERS_TOO_LARGE: the request headers are larger than 16 KB.'),
  InternalError: errorResponse(
    'INTERNAL_ERROR: something unexpected failed (for example a full disk); the message says what.',
  ),
  Unavailable: errorResponse('LOCAL_API_DISABLED: the Local API is switched off in the settings.'),
  InvalidRequest: errorResponse('INVALID_REQUEST: the payload or a parameter is invalid; the message names the field.'),
  JobNotFound: errorResponse('JOB_NOT_FOUND: no job with this id was created through the Local API.'),
  QueueFull: errorResponse('QUEUE_FULL: too many Local API jobs are waiting or running.', retryAfterHeader),
} as const;

/** The responses every Local API operation can give besides its own. */
export const everyLocalOperation = {
  '401': responseRef('Unauthorized'),
  '402': responseRef('EntitlementRequired'),
  '403': responseRef('Forbidden'),
  '408': responseRef('RequestTimeout'),
  '431': responseRef('HeadersTooLarge'),
  '500': responseRef('InternalError'),
  '503': responseRef('Unavailable'),
} as const;
